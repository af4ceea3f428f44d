import { ProviderError } from '../errors';
import { appendAndSave, type InvocationDriver } from './invocation-driver';
import { runModelTurn } from './model-turn';
import { limitEndingLoop } from './limits/asking';
import { abortReason } from './run-signals';
import { applyGuidance } from './guidance';
import { prepareRound, prepareWrapUp } from './turn-preparation';
import { resolveLastTurn, wrapUpInstruction } from './turn-resolution';
import type { InvocationEnding } from '../tools/tool-definition';

/** Whether a provider refused the request itself (as some do a forced tool choice). */
function refusedRequest(error: unknown): boolean {
  return error instanceof ProviderError && (error.status === 400 || error.status === 422);
}

/**
 * The one last call after the cap: a child may only call `task_return` (or, where the provider
 * refuses to be made to call one, gets no tools and answers in text); the root gets no tools.
 * Notes the user sent go into it as into any request; a resumed wrap-up comes through here again,
 * and a note already applied (or already in the history) is not added twice (guidance.ts).
 */
async function wrapUpTurn(driver: InvocationDriver): Promise<void> {
  await applyGuidance(driver);
  try {
    await runModelTurn(driver, prepareWrapUp(driver));
  } catch (error) {
    if (driver.policy.exitPolicy === 'runFinishAllowed' || !refusedRequest(error) || driver.signal.aborted) throw error;
    await runModelTurn(driver, {});
  }
}

/**
 * The next model call, appended to the history: an ordinary round, or, once a limit ends the loop
 * (asked here, in one place: src/runtime/limits/), the limit's note, the wrap-up instruction and
 * the one last call. The wrap-up step is stored with the instruction, so a resumed loop makes the
 * last call as the stopped one would have.
 */
async function takeModelTurn(driver: InvocationDriver): Promise<void> {
  if (driver.invocation.nextStep?.kind === 'wrap-up') return wrapUpTurn(driver);
  if (driver.signal.aborted) throw abortReason(driver.signal);
  const scope = { session: driver.session, invocation: driver.invocation };
  const limit = await limitEndingLoop(scope);
  if (driver.signal.aborted) throw abortReason(driver.signal);
  if (limit) {
    const note = limit.stopNote?.(scope);
    driver.invocation = { ...driver.invocation, nextStep: { kind: 'wrap-up', limit: limit.id } };
    await appendAndSave(driver, ...(note ? [{ role: 'user' as const, content: note }] : []), { role: 'user', content: wrapUpInstruction(driver) });
    return wrapUpTurn(driver);
  }
  // Notes the user sent from the side panel go into this request, a nudge's too (guidance.ts).
  await applyGuidance(driver);
  await runModelTurn(driver, prepareRound(driver));
}

/**
 * The one tool loop, for the root and for every child, fresh or resumed: act on the model's last
 * turn (run its tools, or resolve its text), then call the model again, until a turn ends the
 * invocation. Everything it needs is in the history, so a resumed invocation simply enters the
 * loop: a turn a restart interrupted is acted on like any other (results already stored are kept),
 * and a stored final answer ends the invocation as it would have. The policy in the driver decides
 * tools, exit policy and context. Rejects when a model call fails (after its retries), on
 * cancellation, and on storage failures.
 */
export async function runInvocationLoop(driver: InvocationDriver): Promise<InvocationEnding> {
  // Before its first round an invocation has no turn of its own (a page may end the history it
  // starts with on an assistant message of its own).
  let turnTaken = driver.invocation.usage.rounds > 0;
  try {
    for (;;) {
      if (turnTaken) {
        const ending = await resolveLastTurn(driver);
        if (ending) return ending;
      }
      await takeModelTurn(driver);
      turnTaken = true;
    }
  } finally {
    // Tasks its delegate calls made and the loop stopped before storing were never given out.
    for (const taskId of driver.session.creations.abandon(driver.invocation.id)) driver.session.tasks.delete(taskId);
  }
}
