import type { ChatCompletionAssistantMessageParam } from 'openai/resources/chat/completions';
import { ModelBehaviorError } from '../errors';
import { toolCallsOf } from '../model/tool-protocol';
import type { InvocationEnding } from '../tools/tool-definition';
import { appendAndSave, historyOf, type InvocationDriver } from './invocation-driver';
import { executeToolCalls } from './tool-execution';

/** Said once to a child that answered in plain text instead of calling `task_return`. */
export const TASK_RETURN_NUDGE =
  'Your task is not finished until you call task_return. Call task_return now with your result (summary, findings, and anything the requester should know).';

/** Said to a child at its budget cap, before the one last call that offers only `task_return`. */
export const CHILD_WRAP_UP_INSTRUCTION =
  'You have reached the limit of rounds, tool calls or tokens for this task. Stop working now and call task_return with what you have: summarise your findings so far, and say in warnings what is left undone.';

/** Said to the root at its budget cap, before the one last call without tools. */
export const ROOT_WRAP_UP_INSTRUCTION =
  'You have reached the limit of rounds, tool calls or tokens for this turn. No more tools are available: write your final reply now, from what you have.';

/** The text of an assistant turn. */
export function turnText(message: ChatCompletionAssistantMessageParam): string {
  const { content } = message;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** Whether the child was already told to finish with `task_return` (the step stored with the nudge). */
function wasNudged(driver: InvocationDriver): boolean {
  return driver.invocation.nextStep?.kind === 'task-return-nudged';
}

/** The wrap-up instruction for this invocation's exit policy. */
export function wrapUpInstruction(driver: InvocationDriver): string {
  return driver.policy.exitPolicy === 'runFinishAllowed' ? ROOT_WRAP_UP_INSTRUCTION : CHILD_WRAP_UP_INSTRUCTION;
}

/** The assistant turn the history ends with (followed only by its own tool results, if any). */
interface LastTurn {
  message: ChatCompletionAssistantMessageParam;
  /** The turn answers the wrap-up instruction (the stored step says so): it is the invocation's last. */
  wrappingUp: boolean;
}

function lastTurn(driver: InvocationDriver): LastTurn | undefined {
  const history = historyOf(driver.invocation);
  let index = history.length - 1;
  while (index >= 0 && history[index]?.role === 'tool') index -= 1;
  const message = history[index];
  if (message?.role !== 'assistant') return undefined;
  // The wrap-up step is stored with the instruction, after the turn before it was resolved: any
  // assistant turn while it stands answers the instruction.
  return { message, wrappingUp: driver.invocation.nextStep?.kind === 'wrap-up' };
}

/**
 * Acts on the model turn the history ends with. It is the same for a turn just made and for one a
 * restart left stored: tool calls run (a call whose result is already stored is not run again),
 * and a turn without tool calls is resolved as text. The answer to the wrap-up always ends the
 * invocation. Nothing to do when the history ends with words of the runtime (a nudge, the wrap-up
 * instruction): the model speaks next.
 */
export async function resolveLastTurn(driver: InvocationDriver): Promise<InvocationEnding | undefined> {
  const turn = lastTurn(driver);
  if (!turn) return undefined;
  // The root wraps up without tools: whatever it answers is its reply.
  const calls = driver.policy.exitPolicy === 'runFinishAllowed' && turn.wrappingUp ? [] : toolCallsOf(turn.message);
  if (calls.length > 0) {
    const ending = await executeToolCalls(driver, calls, { wrappingUp: turn.wrappingUp });
    if (ending || !turn.wrappingUp) return ending;
  }
  return resolveTextTurn(driver, turn);
}

/**
 * What a turn's text means. The root: its reply. A child: the first time it is told to finish with
 * `task_return` (undefined: the loop goes on); the second time, or at the wrap-up, its text becomes
 * its result, marked partial.
 */
async function resolveTextTurn(driver: InvocationDriver, turn: LastTurn): Promise<InvocationEnding | undefined> {
  const text = turnText(turn.message);
  if (driver.policy.exitPolicy === 'runFinishAllowed') return { kind: 'reply', text };
  if (turn.wrappingUp) {
    if (text.trim() === '') throw new ModelBehaviorError('wrap-up-failed', 'The agent reached its budget and gave no usable result in its last call.');
    const { maxRounds, maxToolCalls } = driver.invocation.budget;
    return textResult(driver, text, `Stopped at its budget (${maxRounds} rounds, ${maxToolCalls} tool calls) and answered in plain text; this result may be incomplete.`);
  }
  if (!wasNudged(driver)) {
    driver.invocation = { ...driver.invocation, nextStep: { kind: 'task-return-nudged' } };
    await appendAndSave(driver, { role: 'user', content: TASK_RETURN_NUDGE });
    return undefined;
  }
  return textResult(driver, text, 'Answered in plain text instead of calling task_return; this is that text as it stands.');
}

/** A child's text turned into its result, marked partial with a warning. */
async function textResult(driver: InvocationDriver, text: string, warning: string): Promise<InvocationEnding> {
  if (!driver.taskResult) throw new ModelBehaviorError('task-result-unavailable', 'This invocation has no task to return a result to.');
  if (text.trim() === '') {
    throw new ModelBehaviorError('task-result-empty', 'The agent ended without a result: it neither called task_return nor wrote any text.');
  }
  const capsule = await driver.taskResult.submit({
    status: 'partial',
    summary: text.trim(),
    findings: [],
    warnings: [warning],
    suggestedNextActions: [],
    questionsForCaller: [],
    artifacts: [],
  });
  return { kind: 'task-returned', capsule };
}
