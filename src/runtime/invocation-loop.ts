import type { ChatCompletionAssistantMessageParam } from 'openai/resources/chat/completions';
import { ModelBehaviorError, ProviderError } from '../errors';
import { toolCallsOf } from '../model/tool-protocol';
import type { InvocationEnding } from '../tools/tool-definition';
import { firstMetStopCondition } from './budget';
import { appendAndSave, historyOf, type InvocationDriver } from './invocation-driver';
import { runModelTurn } from './model-turn';
import { abortReason } from './run-signals';
import { executeToolCalls } from './tool-execution';
import { prepareRound, prepareWrapUp } from './turn-preparation';
import { isWrapUpInstruction, resolveTextTurn, textResult, turnText, wrapUpInstruction } from './turn-resolution';

interface TailState {
  ending?: InvocationEnding;
  /** The stored history stops right after the wrap-up instruction. */
  wrapUpPending: boolean;
  toolBudgetRefused: boolean;
}

/**
 * Finishes what the stored history left open, so a resumed invocation continues exactly where it
 * stopped: tool calls without results are run (ending tools again, they are idempotent), a final
 * text turn is resolved, a pending wrap-up is made. A fresh history has nothing open.
 */
async function resumeStoredTail(driver: InvocationDriver): Promise<TailState> {
  const history = historyOf(driver.invocation);
  const last = history.at(-1);
  if (last?.role === 'user' && isWrapUpInstruction(driver, last)) return { wrapUpPending: true, toolBudgetRefused: false };
  // Before the first round the history is what the invocation started with (a page may end it
  // with an assistant message of its own): nothing is open.
  if (driver.invocation.usage.rounds === 0) return { wrapUpPending: false, toolBudgetRefused: false };
  let assistantIndex = history.length - 1;
  while (assistantIndex >= 0 && history[assistantIndex]?.role === 'tool') assistantIndex -= 1;
  const assistant = history[assistantIndex];
  if (assistant?.role !== 'assistant') return { wrapUpPending: false, toolBudgetRefused: false };
  const wrappingUp = isWrapUpInstruction(driver, history[assistantIndex - 1]);
  if (wrappingUp) return { ending: await resolveWrapUpAnswer(driver, assistant, history.length - 1 - assistantIndex), wrapUpPending: false, toolBudgetRefused: false };
  const calls = toolCallsOf(assistant);
  if (calls.length === 0) {
    return { ending: last === assistant ? await resolveTextTurn(driver, assistant) : undefined, wrapUpPending: false, toolBudgetRefused: false };
  }
  const answeredCallIds = new Set(
    history.slice(assistantIndex + 1).flatMap((message) => (message.role === 'tool' ? [message.tool_call_id] : [])),
  );
  const result = await executeToolCalls(driver, calls, { answeredCallIds });
  return { ending: result.ending, wrapUpPending: false, toolBudgetRefused: result.toolBudgetRefused };
}

/**
 * The answer to the forced wrap-up: the root's text is its reply; a child's `task_return` (or, if
 * it wrote text instead, that text) is its result, marked partial. Only if it gives neither does
 * the task fail.
 */
async function resolveWrapUpAnswer(
  driver: InvocationDriver,
  message: ChatCompletionAssistantMessageParam,
  resultsStored: number,
): Promise<InvocationEnding> {
  if (driver.policy.exitPolicy === 'runFinishAllowed') return { kind: 'reply', text: turnText(message) };
  const calls = toolCallsOf(message);
  if (calls.length > 0) {
    const answeredCallIds = new Set(calls.slice(0, resultsStored).map((call) => call.id));
    const result = await executeToolCalls(driver, calls, { wrappingUp: true, answeredCallIds });
    if (result.ending) return result.ending;
  }
  const text = turnText(message);
  if (text.trim() !== '') {
    const { maxRounds, maxToolCalls } = driver.invocation.budget;
    return textResult(driver, text, `Stopped at its budget (${maxRounds} rounds, ${maxToolCalls} tool calls) and answered in plain text; this result may be incomplete.`);
  }
  throw new ModelBehaviorError('wrap-up-failed', 'The agent reached its budget and gave no usable result in its last call.');
}

/** Whether a provider refused the request itself (as some do a forced tool choice). */
function refusedRequest(error: unknown): boolean {
  return error instanceof ProviderError && (error.status === 400 || error.status === 422);
}

/**
 * One last call after the cap: a child may only call `task_return` (or, where the provider
 * refuses to be made to call one, gets no tools and answers in text); the root gets no tools.
 */
async function forcedWrapUp(driver: InvocationDriver, instructionStored: boolean): Promise<InvocationEnding> {
  if (!instructionStored) await appendAndSave(driver, { role: 'user', content: wrapUpInstruction(driver) });
  let message: ChatCompletionAssistantMessageParam;
  try {
    message = await runModelTurn(driver, prepareWrapUp(driver));
  } catch (error) {
    if (driver.policy.exitPolicy === 'runFinishAllowed' || !refusedRequest(error) || driver.signal.aborted) throw error;
    message = await runModelTurn(driver, {});
  }
  return resolveWrapUpAnswer(driver, message, 0);
}

/**
 * The one tool loop, for the root and for every child: prepare the turn, call the model, run the
 * tools, resolve the turn; stop conditions are checked in one place before each round. The policy
 * in the driver decides tools, exit policy and context. Rejects when a model call fails (after its
 * retries), on cancellation, and on storage failures.
 */
export async function runInvocationLoop(driver: InvocationDriver): Promise<InvocationEnding> {
  const tail = await resumeStoredTail(driver);
  if (tail.ending) return tail.ending;
  if (tail.wrapUpPending) return forcedWrapUp(driver, true);
  let toolBudgetRefused = tail.toolBudgetRefused;
  for (;;) {
    const stop = firstMetStopCondition({
      budget: driver.invocation.budget,
      usage: driver.invocation.usage,
      toolBudgetRefused,
      signal: driver.signal,
    });
    if (stop?.reason === 'cancelled') throw abortReason(driver.signal);
    if (stop) return forcedWrapUp(driver, false);
    // Told its reply is due, the root had a round to write it; calling tools again ends in the last call.
    if (driver.invocation.kind === 'root' && driver.session.replyDeadline.overdueAtRound()) return forcedWrapUp(driver, false);
    const message = await runModelTurn(driver, prepareRound(driver));
    const calls = toolCallsOf(message);
    if (calls.length === 0) {
      const ending = await resolveTextTurn(driver, message);
      if (ending) return ending;
      continue;
    }
    const result = await executeToolCalls(driver, calls);
    if (result.ending) return result.ending;
    toolBudgetRefused = result.toolBudgetRefused;
  }
}
