import type { ChatCompletionAssistantMessageParam, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { ModelBehaviorError } from '../errors';
import type { InvocationEnding } from '../tools/tool-definition';
import { appendAndSave, historyOf, type InvocationDriver } from './invocation-driver';

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

function isUserText(message: ChatCompletionMessageParam | undefined, text: string): boolean {
  return message?.role === 'user' && message.content === text;
}

/** Whether the child was already told to finish with `task_return`. */
export function wasNudged(driver: InvocationDriver): boolean {
  return historyOf(driver.invocation).some((message) => isUserText(message, TASK_RETURN_NUDGE));
}

/** The wrap-up instruction for this invocation's exit policy. */
export function wrapUpInstruction(driver: InvocationDriver): string {
  return driver.policy.exitPolicy === 'runFinishAllowed' ? ROOT_WRAP_UP_INSTRUCTION : CHILD_WRAP_UP_INSTRUCTION;
}

/** Whether the message at `index` of the history is this invocation's wrap-up instruction. */
export function isWrapUpInstruction(driver: InvocationDriver, message: ChatCompletionMessageParam | undefined): boolean {
  return isUserText(message, wrapUpInstruction(driver));
}

/**
 * What a turn without tool calls means. The root: its text is the reply. A child: the first time
 * it is told to finish with `task_return` (undefined: the loop goes on); the second time its text
 * becomes its result, marked partial.
 */
export async function resolveTextTurn(
  driver: InvocationDriver,
  message: ChatCompletionAssistantMessageParam,
): Promise<InvocationEnding | undefined> {
  const text = turnText(message);
  if (driver.policy.exitPolicy === 'runFinishAllowed') return { kind: 'reply', text };
  if (!wasNudged(driver)) {
    await appendAndSave(driver, { role: 'user', content: TASK_RETURN_NUDGE });
    return undefined;
  }
  return textResult(driver, text, 'Answered in plain text instead of calling task_return; this is that text as it stands.');
}

/** A child's text turned into its result, marked partial with a warning. */
export async function textResult(driver: InvocationDriver, text: string, warning: string): Promise<InvocationEnding> {
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
