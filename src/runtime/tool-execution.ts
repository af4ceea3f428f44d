import { toCanonicalToolName, toolResultMessage, type ToolCallRequest } from '../model/tool-protocol';
import { addUsage } from '../records/usage';
import { dispatchToolCall } from '../tools/tool-dispatcher';
import type { InvocationEnding, ToolContext } from '../tools/tool-definition';
import { appendAndSave, appendToolResult, historyOf, journalIds, type InvocationDriver } from './invocation-driver';
import { recordMet, toolCallRefusal, toolResultNotes } from './limits/asking';
import type { ToolName } from '../settings/tool-names';
import { createLorePort } from './lore-records';
import { isReadOnlyTool } from './read-only-turns';
import type { AgentTaskRecord } from '../records/task';

export interface ToolExecutionOptions {
  /** The forced wrap-up call: only `task.return` is offered and a result is partial. */
  wrappingUp?: boolean;
}

const ENDING_TOOLS: readonly string[] = ['workspace_commit', 'workspace_finish', 'task_return'];
const DELEGATE_TOOL = 'agent_delegate';

/**
 * Whether two consecutive calls' results are stored in one step: delegate calls (with the tasks
 * they created) and calls that only read (with the turn that made them, read-only-turns.ts).
 */
function sameStep(callName: string, nextName: string): boolean {
  if (callName === DELEGATE_TOOL) return nextName === DELEGATE_TOOL;
  return isReadOnlyTool(callName) && isReadOnlyTool(nextName);
}

/**
 * The results the history already holds for the turn it ends with, by call id: none for a turn
 * just made; some or all for a turn a restart interrupted.
 */
function storedResults(driver: InvocationDriver): Map<string, string> {
  const history = historyOf(driver.invocation);
  const results = new Map<string, string>();
  for (let index = history.length - 1; history[index]?.role === 'tool'; index -= 1) {
    const message = history[index];
    if (message?.role === 'tool') results.set(message.tool_call_id, typeof message.content === 'string' ? message.content : '');
  }
  return results;
}

function contextFor(driver: InvocationDriver, toolCallId: string, wrappingUp: boolean): ToolContext {
  return {
    signal: driver.signal,
    toolCallId,
    turn: driver.invocation.usage.rounds,
    workspace: driver.workspace,
    chat: driver.session.snapshot.messages,
    delegation: driver.delegation,
    taskResult: driver.taskResult,
    ...(driver.session.lore ? { lore: createLorePort(driver, driver.session.lore) } : {}),
    wrappingUp,
    budget: { maxRounds: driver.invocation.budget.maxRounds, maxToolCalls: driver.invocation.budget.maxToolCalls },
  };
}

/**
 * Runs the tool calls of the assistant turn the history ends with, in order. Each result is
 * appended and saved as it comes, journaled, and counted against the budget; a call a limit refuses
 * gets the limit's words and the limit is recorded as met; results of tasks that finished
 * meanwhile are announced on the next result, the limits' notes follow, and what a result hands
 * over is recorded in the same write. A call whose result is already stored (a turn a restart interrupted) keeps it and
 * is not run again, except the ending tools: they are idempotent, and running them again tells the
 * loop how the invocation ended. Consecutive delegate calls, and consecutive calls that only read,
 * store their results in one step.
 */
export async function executeToolCalls(
  driver: InvocationDriver,
  calls: readonly ToolCallRequest[],
  options: ToolExecutionOptions = {},
): Promise<InvocationEnding | undefined> {
  const wrappingUp = options.wrappingUp ?? false;
  const surface: readonly ToolName[] = wrappingUp ? ['task.return'] : driver.policy.tools;
  const ids = journalIds(driver);
  let ending: InvocationEnding | undefined;
  const stored = storedResults(driver);
  // The results of consecutive delegate calls are saved in one step, with the tasks they created.
  let deferredHandover: AgentTaskRecord[] = [];
  for (const [index, call] of calls.entries()) {
    const answered = stored.has(call.id);
    if (answered && !ENDING_TOOLS.includes(call.name)) continue;
    if (ending && !answered) {
      await appendAndSave(driver, toolResultMessage(call.id, `Not run: your work already ended earlier in this turn.`));
      continue;
    }
    driver.session.journal.note('tool-call-start', { ...ids, data: { tool: toCanonicalToolName(call.name), callId: call.id, replay: answered } });
    const refusal = answered ? undefined : toolCallRefusal({ session: driver.session, invocation: driver.invocation }, call.name);
    const result = await dispatchToolCall({
      call,
      surface,
      context: contextFor(driver, call.id, wrappingUp),
      ...(refusal ? { refusal: refusal.text } : {}),
      withheld: wrappingUp ? undefined : driver.policy.withheld,
    });
    // Noted before the result is appended, so the result's write carries it.
    driver.session.journal.note('tool-call-end', {
      ...ids,
      data: { tool: result.toolName, callId: call.id, ok: result.problem === undefined, error: result.problem, counted: result.counts },
    });
    if (!answered) {
      if (result.counts) driver.invocation = { ...driver.invocation, usage: addUsage(driver.invocation.usage, { toolCalls: 1 }) };
      if (result.counts) driver.session.addUsage({ toolCalls: 1 });
      if (result.refused && refusal) driver.invocation = recordMet(driver.invocation, refusal.limit);
      const handover = result.handover ?? { delivered: [], announced: [] };
      const announcement = driver.delegation?.announcement(handover);
      const limitNotes = toolResultNotes({ session: driver.session, invocation: driver.invocation });
      driver.invocation = limitNotes.invocation;
      const content = [result.content, announcement?.line, ...limitNotes.notes].filter((part) => part !== undefined).join('\n\n');
      const handedOver = driver.delegation?.handedOver({ ...handover, announced: [...handover.announced, ...(announcement?.names ?? [])] }) ?? [];
      const next = calls[index + 1];
      // A task's result that ends it is stored with the task's end (task-ending.ts), which stores its history.
      const returned = result.ending?.kind === 'task-returned' && next === undefined && handedOver.length === 0 && deferredHandover.length === 0;
      const defer = returned || (next !== undefined && !stored.has(next.id) && sameStep(call.name, next.name));
      await appendToolResult(driver, toolResultMessage(call.id, content), [...deferredHandover, ...handedOver], { defer });
      deferredHandover = defer ? [...deferredHandover, ...handedOver] : [];
      if (result.lookup) driver.session.journal.note(result.lookup.type, { ...ids, data: { ...result.lookup.data, callId: call.id } });
    }
    ending ??= result.ending;
  }
  return ending;
}
