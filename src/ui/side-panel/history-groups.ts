import { identityBasis } from '../../records/chat-identity';
import type { AgentRun } from '../../records/run';

/**
 * History grouped by conversation (the run record's `chat.conversationId`, per site). A group holds
 * the runs of one conversation, newest first, and groups come in the order of their newest run;
 * a run that knows no conversation (recorded before runs had one) stands alone.
 */
export type HistoryEntry =
  | { kind: 'conversation'; key: string; conversationId: string; runs: AgentRun[] }
  | { kind: 'run'; key: string; run: AgentRun };

/** Groups `runs` (newest first, as history lists them) by site and conversation, keeping their order. */
export function groupHistoryByConversation(runs: readonly AgentRun[]): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  const groups = new Map<string, Extract<HistoryEntry, { kind: 'conversation' }>>();
  for (const run of runs) {
    const conversationId = run.chat?.conversationId;
    if (conversationId === undefined) {
      entries.push({ kind: 'run', key: run.id, run });
      continue;
    }
    const key = `${run.origin}\n${conversationId}`;
    const group = groups.get(key);
    if (group) {
      group.runs.push(run);
      continue;
    }
    const created: Extract<HistoryEntry, { kind: 'conversation' }> = { kind: 'conversation', key, conversationId, runs: [run] };
    groups.set(key, created);
    entries.push(created);
  }
  return entries;
}

/**
 * What a conversation is called: the page's own chat id (SillyTavern's chat file name) as it is;
 * a conversation known by a route in the page's address or by a hash of its opening (neither reads
 * as a name) is named after its oldest run shown.
 */
export function conversationName(conversationId: string, runs: readonly AgentRun[]): { chatId: string } | { firstTitle: string } {
  const chat = runs.find((run) => run.chat?.conversationId === conversationId)?.chat ?? { conversationId };
  if (identityBasis(chat) === 'page') return { chatId: conversationId };
  return { firstTitle: runs.at(-1)?.title ?? '' };
}
