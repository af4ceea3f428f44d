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
}

/** The stored history as the provider takes it (it was built from provider messages). */
export function historyOf(invocation: AgentInvocation): ChatCompletionMessageParam[] {
  return invocation.messages as unknown as ChatCompletionMessageParam[];
}

/** Appends messages to the history and saves the invocation before anything else happens. */
export async function appendAndSave(driver: InvocationDriver, ...messages: ChatCompletionMessageParam[]): Promise<void> {
  driver.invocation = {
    ...driver.invocation,
    messages: [...driver.invocation.messages, ...(messages as unknown as AgentInvocation['messages'])],
  };
  await driver.session.saveStep({ invocations: [driver.invocation] });
}

/**
 * Appends one tool result and saves it in one write with the task records it hands over (results
 * delivered, ends announced), so a restart can neither lose the hand-over nor repeat it.
 */
export async function appendToolResult(driver: InvocationDriver, message: ChatCompletionMessageParam, handedOver: readonly AgentTaskRecord[]): Promise<void> {
  const invocation: AgentInvocation = {
    ...driver.invocation,
    messages: [...driver.invocation.messages, message as unknown as AgentInvocation['messages'][number]],
  };
  await driver.session.saveStep({ invocations: [invocation], tasks: handedOver });
  driver.invocation = invocation;
  driver.session.rememberHandover(handedOver);
}

/** Journal fields naming this invocation (and its task). */
export function journalIds(driver: InvocationDriver): { invocationId: string; taskId?: string } {
  return driver.taskId === undefined ? { invocationId: driver.invocation.id } : { invocationId: driver.invocation.id, taskId: driver.taskId };
}
