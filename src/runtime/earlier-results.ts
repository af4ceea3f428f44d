import { HostContractError } from '../errors';
import type { ChatIdentity } from '../records/chat-identity';
import { readStoredCapsule, type ResultCapsule } from '../records/capsule';
import type { AgentRun } from '../records/run';
import type { AgentTaskRecord } from '../records/task';
import type { RunStore } from '../store/run-store';
import { renderCapsuleBody, renderResultFile } from '../rendering/capsule-markdown';
import { capText } from '../rendering/markdown-rendering';
import { mayCarryToNextTurn, mayReuseForSameMessage } from './chat-identity';

/** Where a carried result's full text lives in the new run's workspace, as the root sees it. */
export const EARLIER_FOLDER = 'summaries/earlier/';
/** How many earlier runs of a conversation are looked at. */
const RUNS_LOOKED_AT = 50;
const SUMMARY_CHARS = 300;

/** A result from an earlier run of the conversation, offered to this run's root by name. */
export interface EarlierResult {
  /** The name the root uses with `agent_await`: `earlier-<task name>`. */
  name: string;
  title: string;
  capsule: ResultCapsule;
  /** Came after the earlier run's reply (offered once), or from an earlier attempt at the same message. */
  kind: 'late' | 'same-message';
  task: AgentTaskRecord;
}

export function earlierResultFolder(name: string): string {
  return `${EARLIER_FOLDER}${name}/`;
}

async function readCapsule(store: RunStore, task: AgentTaskRecord): Promise<ResultCapsule | undefined> {
  if (!task.resultRef) return undefined;
  const file = await store.readFile(task.runId, task.resultRef);
  if (!file) return undefined;
  const reading = readStoredCapsule(file.content);
  if (reading.ok) return reading.capsule;
  if (reading.problem === 'not-json') throw new HostContractError('capsule-unreadable', `The stored result ${task.resultRef} is not valid JSON.`);
  return undefined;
}

/**
 * The results an earlier run of the same conversation leaves for this one: results that came after
 * that run's reply and were never read or offered (each offered once), and, for a swipe or
 * regenerate of the same message (same `historyKey`), the earlier attempt's completed results. An
 * edit of an earlier message changes the key, so those are stale and not offered. Which identities
 * may share is decided in `chat-identity.ts` (a guessed identity never reuses for the same message).
 */
export async function findEarlierResults(store: RunStore, run: AgentRun, chat: ChatIdentity): Promise<EarlierResult[]> {
  const runs = (await store.listRuns({ origin: run.origin, limit: RUNS_LOOKED_AT })).filter(
    (earlier) => earlier.id !== run.id && earlier.chat?.conversationId === chat.conversationId && earlier.createdAt <= run.createdAt,
  );
  runs.sort((left, right) => right.createdAt - left.createdAt);
  const sameMessage = runs.find((earlier) => earlier.chat !== undefined && mayReuseForSameMessage(earlier.chat, chat));
  const found = new Map<string, EarlierResult>();
  if (sameMessage) {
    for (const task of await store.listTasks(sameMessage.id)) {
      if (task.status !== 'completed') continue;
      const capsule = await readCapsule(store, task);
      if (capsule && capsule.status !== 'failed') found.set(`earlier-${task.workspaceKey}`, { name: `earlier-${task.workspaceKey}`, title: task.task.title, capsule, kind: 'same-message', task });
    }
  }
  for (const earlier of runs) {
    if (earlier.repliedAt === undefined || !earlier.chat || !mayCarryToNextTurn(earlier.chat, chat)) continue;
    for (const task of await store.listTasks(earlier.id)) {
      const hasResult = task.status === 'completed' || task.status === 'failed';
      if (!hasResult || task.resultDeliveredAt !== undefined || task.carriedToRunId !== undefined) continue;
      const capsule = await readCapsule(store, task);
      let name = `earlier-${task.workspaceKey}`;
      for (let repeat = 2; found.has(name); repeat += 1) name = `earlier-${task.workspaceKey}-${repeat}`;
      if (capsule) found.set(name, { name, title: task.task.title, capsule, kind: 'late', task });
    }
  }
  return [...found.values()];
}

/**
 * Stores each result's full text under `summaries/earlier/<name>/result.md` in the new run, and
 * marks late results as offered to it (so the next run does not get them again).
 */
export async function takeEarlierResults(store: RunStore, runId: string, results: readonly EarlierResult[], now: number): Promise<void> {
  for (const result of results) {
    await store.writeFile({ runId, path: `${earlierResultFolder(result.name)}result.md`, content: renderResultFile(result.capsule), updatedAt: now });
    if (result.kind === 'late') await store.putTask({ ...result.task, carriedToRunId: runId });
  }
}

function line(result: EarlierResult): string {
  const summary = capText(result.capsule.summary.replace(/\s+/g, ' ').trim(), SUMMARY_CHARS, '…');
  return `- \`${result.name}\` — ${result.title} (${result.capsule.status}): ${summary}`;
}

/** The short section the root reads in its first model call; undefined when there is nothing. */
export function renderEarlierSection(results: readonly EarlierResult[]): string | undefined {
  const late = results.filter((result) => result.kind === 'late');
  const same = results.filter((result) => result.kind === 'same-message');
  const parts: string[] = [];
  if (late.length > 0) {
    parts.push(['## Since your last reply', 'Helpers you asked earlier finished after your reply:', ...late.map(line)].join('\n'));
  }
  if (same.length > 0) {
    parts.push(
      ['## From your earlier attempt at this reply', 'These results still hold for this message; use them instead of asking the same helpers again:', ...same.map(line)].join('\n'),
    );
  }
  if (parts.length === 0) return undefined;
  parts.push(`Full results are in \`${EARLIER_FOLDER}<name>/result.md\`; agent_await with a name gives you one.`);
  return parts.join('\n\n');
}

/** An earlier result as `agent.await` hands it over. */
export function renderEarlierForAwait(result: EarlierResult): string {
  return [
    `### ${result.name} — ${result.capsule.status} (from an earlier turn)`,
    `_${result.title}_`,
    '',
    renderCapsuleBody(result.capsule),
    '',
    `Full result: \`${earlierResultFolder(result.name)}result.md\``,
  ].join('\n');
}

/** Adds the section to the root's leading system text (or before everything when there is none). */
export function withEarlierSection<Message extends { role: string; content?: unknown }>(messages: Message[], section: string | undefined): Message[] {
  if (section === undefined) return messages;
  const first = messages[0];
  if (first && first.role === 'system' && typeof first.content === 'string') {
    return [{ ...first, content: `${first.content}\n\n${section}` }, ...messages.slice(1)];
  }
  return [{ role: 'system', content: section } as Message, ...messages];
}
