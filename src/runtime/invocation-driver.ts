import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { AgentInvocation } from '../records/invocation';
import type { AgentTaskRecord } from '../records/task';
import type { CallSampling, ModelClient } from '../model/model-client';
import type { DelegationPort, TaskResultPort } from '../tools/tool-definition';
import type { WorkspaceView } from '../workspace/workspace-view';
import type { InvocationPolicy } from './invocation-policy';
import type { RootReplyStream } from './reply-stream';
import type { RunSession } from './run-session';

/** Everything one invocation's loop works with; the same shape for the root and every child. */
export interface InvocationDriver {
  session: RunSession;
  /** Mutated by the loop and saved after every step. */
  invocation: AgentInvocation;
  policy: InvocationPolicy;
  model: ModelClient;
  sampling: CallSampling;
  signal: AbortSignal;
  workspace: WorkspaceView;
  delegation?: DelegationPort;
  taskResult?: TaskResultPort;
  /** The task this invocation works on (children), for journal events. */
  taskId?: string;
  /** The root's turns stream to the page through this, when the page listens. */
  replyStream?: RootReplyStream;
  /**
   * A child's start, written beside its first model call rather than before it: the invocation's
   * first write waits for it, so its failure is the invocation's (`settleStartWrite`).
   */
  startWrite?: Promise<void>;
}

/** Waits for the invocation's start write, once; rejects with its failure. */
export async function settleStartWrite(driver: InvocationDriver): Promise<void> {
  const pending = driver.startWrite;
  if (pending === undefined) return;
  driver.startWrite = undefined;
  await pending;
}

/** The stored history as the provider takes it (it was built from provider messages). */
export function historyOf(invocation: AgentInvocation): ChatCompletionMessageParam[] {
  return invocation.messages as unknown as ChatCompletionMessageParam[];
}

/**
 * Saves the invocation as it stands in one step with `tasks` and the tasks its delegate calls
 * created since its last save (their child invocations too): they are stored together or not at all.
 */
async function saveInvocation(driver: InvocationDriver, tasks: readonly AgentTaskRecord[]): Promise<void> {
  await settleStartWrite(driver);
  const { session } = driver;
  const creations = session.creations.take(driver.invocation.id);
  const created = creations.taskIds.flatMap((id) => session.tasks.get(id) ?? []);
  const write = session.saveStep({ invocations: [driver.invocation, ...creations.invocations], tasks: [...created, ...tasks] });
  creations.settle(write);
  await write;
}

/** Appends messages to the history in memory; the next save stores them. */
export function append(driver: InvocationDriver, ...messages: ChatCompletionMessageParam[]): void {
  driver.invocation = {
    ...driver.invocation,
    messages: [...driver.invocation.messages, ...(messages as unknown as AgentInvocation['messages'])],
  };
}

/** Appends messages to the history and saves the invocation before anything else happens. */
export async function appendAndSave(driver: InvocationDriver, ...messages: ChatCompletionMessageParam[]): Promise<void> {
  append(driver, ...messages);
  await saveInvocation(driver, []);
}

/**
 * Appends one tool result and saves it in one write with the task records it hands over (results
 * delivered, ends announced), so a restart can neither lose the hand-over nor repeat it. With
 * `defer`, the result stays in memory for the next save (which must carry `handedOver` on): the
 * delegate calls of one turn are stored in one step.
 */
export async function appendToolResult(
  driver: InvocationDriver,
  message: ChatCompletionMessageParam,
  handedOver: readonly AgentTaskRecord[],
  options: { defer?: boolean } = {},
): Promise<void> {
  driver.invocation = {
    ...driver.invocation,
    messages: [...driver.invocation.messages, message as unknown as AgentInvocation['messages'][number]],
  };
  driver.session.rememberHandover(handedOver);
  if (!options.defer) await saveInvocation(driver, handedOver);
}

/** Journal fields naming this invocation (and its task). */
export function journalIds(driver: InvocationDriver): { invocationId: string; taskId?: string } {
  return driver.taskId === undefined ? { invocationId: driver.invocation.id } : { invocationId: driver.invocation.id, taskId: driver.taskId };
}
