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

/** The last snapshot text parsed, so the store and its meter parse a run's chat once between them. */
let lastParsed: { content: string; messages: unknown[] | undefined } | undefined;

/**
 * The `messages` of a stored prompt snapshot file, or undefined when there is none to read. The
 * messages are shared with the next caller that reads the same text: read them, never change them.
 */
export function snapshotMessagesOf(file: Pick<WorkspaceFile, 'content'> | undefined): readonly unknown[] | undefined {
  if (!file) return undefined;
  if (lastParsed?.content === file.content) return lastParsed.messages;
  let messages: unknown[] | undefined;
  try {
    const parsed: unknown = JSON.parse(file.content);
    const found = typeof parsed === 'object' && parsed !== null ? (parsed as { messages?: unknown }).messages : undefined;
    messages = Array.isArray(found) ? found : undefined;
  } catch {
    messages = undefined;
  }
  lastParsed = { content: file.content, messages };
  return messages;
}

/** Whether two JSON values are equal as JSON (an absent property and one set to undefined alike). */
export function sameJson(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (typeof left !== 'object' || typeof right !== 'object' || left === null || right === null) return false;
  if (Array.isArray(left) !== Array.isArray(right)) return false;
  if (Array.isArray(left)) {
    const other = right as unknown[];
    return left.length === other.length && left.every((item, index) => sameJson(item, other[index]));
  }
  const leftRecord = left as Record<string, unknown>;
  const rightRecord = right as Record<string, unknown>;
  const keys = (record: Record<string, unknown>) => Object.keys(record).filter((key) => record[key] !== undefined);
  const leftKeys = keys(leftRecord);
  return leftKeys.length === keys(rightRecord).length && leftKeys.every((key) => sameJson(leftRecord[key], rightRecord[key]));
}

/**
 * For each history message from `from` on, the position of an equal message in the prompt snapshot,
 * or undefined. A root's history holds the page's chat in order, with its first message changed or
 * one put before it (root-context.ts), so each message is matched against the next snapshot message
 * and the one after it: linear in the chat, however long, and no message is turned into text. The
 * store and its meter both decide with this, so they count what is stored.
 */
export function snapshotReferences(messages: readonly unknown[], from: number, snapshot: readonly unknown[] | undefined): (number | undefined)[] {
  let next = 0;
  return messages.slice(from).map((message) => {
    if (!snapshot) return undefined;
    for (let position = next; position < Math.min(next + 2, snapshot.length); position += 1) {
      if (sameJson(message, snapshot[position])) {
        next = position + 1;
        return position;
      }
    }
    return undefined;
  });
}

/**
 * The records for the messages of `invocation` from position `from` on, validated before anything is
 * written: a message the snapshot holds becomes a reference to it (`snapshot`, absent when the
 * history is not the root's first save), any other is stored as it is.
 */
export function newHistoryRecords(invocation: AgentInvocation, from: number, snapshot: readonly unknown[] | undefined): HistoryMessage[] {
  const references = snapshotReferences(invocation.messages, from, snapshot);
  return invocation.messages.slice(from).map((message, offset) => {
    const seq = from + offset;
    const snapshotIndex = references[offset];
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
