import { HostContractError } from '../errors';
import type { HistoryMessage } from '../records/history-message';
import { chatMessageSchema, type AgentInvocation, type StoredChatMessage } from '../records/invocation';
import type { InvocationState } from '../records/invocation-state';
import type { WorkspaceFile } from '../records/workspace-file';
import { validateRecord } from './record-validation';

/** An invocation's state: everything but its history, with how many messages the history holds. */
export function stateOf(invocation: AgentInvocation, messageCount: number): InvocationState {
  const { messages: _messages, ...state } = invocation;
  return { ...state, messageCount };
}

/** The `messages` of a stored prompt snapshot file, or undefined when there is none to read. */
export function snapshotMessagesOf(file: Pick<WorkspaceFile, 'content'> | undefined): unknown[] | undefined {
  if (!file) return undefined;
  try {
    const parsed: unknown = JSON.parse(file.content);
    const messages = typeof parsed === 'object' && parsed !== null ? (parsed as { messages?: unknown }).messages : undefined;
    return Array.isArray(messages) ? messages : undefined;
  } catch {
    return undefined;
  }
}

/** Each snapshot message's JSON text and its first position, to find history messages the snapshot holds. */
export function snapshotPositions(messages: readonly unknown[] | undefined): Map<string, number> {
  const positions = new Map<string, number>();
  messages?.forEach((message, index) => {
    const text = JSON.stringify(message);
    if (!positions.has(text)) positions.set(text, index);
  });
  return positions;
}

/**
 * The records for the messages of `invocation` from position `from` on, validated before anything is
 * written: a message the snapshot holds becomes a reference to it (`positions`, empty when the
 * history is not the root's), any other is stored as it is.
 */
export function newHistoryRecords(invocation: AgentInvocation, from: number, positions: ReadonlyMap<string, number>): HistoryMessage[] {
  return invocation.messages.slice(from).map((message, offset) => {
    const seq = from + offset;
    const snapshotIndex = positions.size > 0 ? positions.get(JSON.stringify(message)) : undefined;
    if (snapshotIndex !== undefined) return { runId: invocation.runId, invocationId: invocation.id, seq, snapshotIndex };
    const stored = validateRecord(chatMessageSchema, message, { kind: `message ${seq} of invocation ${invocation.id}`, direction: 'store' });
    return { runId: invocation.runId, invocationId: invocation.id, seq, message: stored };
  });
}

/**
 * The history of an invocation from its message records, in order; `snapshotMessages` is asked for
 * only when a record refers to the snapshot. A missing record or snapshot is a broken store: it fails
 * fast and says so rather than handing a shortened history to the loop.
 */
export function assembleHistory(
  state: InvocationState,
  records: readonly HistoryMessage[],
  snapshotMessages: () => readonly unknown[] | undefined,
): StoredChatMessage[] {
  const history: StoredChatMessage[] = [];
  let snapshot: readonly unknown[] | undefined;
  for (const record of records) {
    if (record.seq >= state.messageCount) break;
    if (record.seq !== history.length) throw brokenHistory(state, `message ${history.length} is missing`);
    if (record.message !== undefined) {
      history.push(record.message);
      continue;
    }
    snapshot ??= snapshotMessages();
    const message = record.snapshotIndex === undefined ? undefined : snapshot?.[record.snapshotIndex];
    if (message === undefined) throw brokenHistory(state, `message ${record.seq} refers to the prompt snapshot, which is missing or shorter`);
    history.push(message as StoredChatMessage);
  }
  if (history.length !== state.messageCount) throw brokenHistory(state, `only ${history.length} of ${state.messageCount} messages are stored`);
  return history;
}

function brokenHistory(state: InvocationState, what: string): HostContractError {
  return new HostContractError(
    'store-history-broken',
    `The stored history of invocation ${state.id} is incomplete: ${what}. The run cannot continue from it; delete the run from the side panel.`,
  );
}
