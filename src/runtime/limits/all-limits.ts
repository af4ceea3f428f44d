import { historyCap } from './history-cap';
import type { Limit } from './limit';
import { replyDeadline } from './reply-deadline';
import { roundCap } from './round-cap';
import { spendCap } from './spend-cap';
import { toolCallCap } from './tool-call-cap';

/**
 * Every limit, asked in this order wherever limits are asked (the first that ends a loop names its
 * wrap-up). A new limit is one file in this folder and one line here; a test fails when a limit
 * file is not listed.
 */
export const LIMITS: readonly Limit[] = [roundCap, toolCallCap, spendCap, historyCap, replyDeadline];
