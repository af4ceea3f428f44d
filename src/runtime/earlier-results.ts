import { HostContractError } from '../errors';
import type { ChatIdentity } from '../records/chat-identity';
import { readStoredCapsule, type ResultCapsule } from '../records/capsule';
import { endedWithReply, type AgentRun } from '../records/run';
import type { AgentTaskRecord } from '../records/task';
import type { RunStore } from '../store/run-store';
import { childPathForReaders, renderCapsuleBody, renderResultFile } from '../rendering/capsule-markdown';
import { capText } from '../rendering/markdown-rendering';
import { mayCarryToNextTurn, mayReuseForSameMessage } from './chat-identity';
import { readableResult } from './readable-result';

/** Where an earlier result's full text (and its files) lives in the new run's workspace, as the root sees it. */
export const EARLIER_FOLDER = 'summaries/earlier/';
/** How many earlier runs of a conversation are looked at. */
const RUNS_LOOKED_AT = 50;
const SUMMARY_CHARS = 300;
/** How many of an earlier result's files are copied into the new run. */
const FILES_COPIED = 20;

/**
 * An earlier result: a helper's result from an earlier run of the conversation, offered to this
 * run's root by name, as the user let it stand (see readable-result.ts).
 */
export interface EarlierResult {
  /** The name the root uses with `agent_await`: `earlier-<task name>`. */
  name: string;
  title: string;
  /** As it may be read: the agent's own, or the user's edit. */
  capsule: ResultCapsule;
  editedByUser: boolean;
  /** Came after the earlier run's reply, or from an earlier attempt at the same message (a swipe). */
  kind: 'since-last-reply' | 'same-message';
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

/** The runs an earlier result was offered to (records from before `offeredToRunIds` name one). */
function offeredTo(task: AgentTaskRecord): string[] {
  return [...(task.offeredToRunIds ?? []), ...(task.carriedToRunId !== undefined ? [task.carriedToRunId] : [])];
}

/**
 * A helper that ran after its run's reply (cadence `after the reply`, or started by the user once
 * the reply was out, as between turns): its result is about that reply.
 */
function isAboutTheReply(task: AgentTaskRecord, run: AgentRun): boolean {
  if (task.startedBy === 'user') return run.repliedAt !== undefined && task.createdAt >= run.repliedAt;
  return task.startedBy === 'cadence' && task.cadence === 'after the reply';
}

const sameText = (left: string, right: string): boolean => left.replace(/\s+/g, ' ').trim() === right.replace(/\s+/g, ' ').trim();

/**
 * Whether a run at another message gave its reply with this result. An attempt at this run's own
 * message does not count: a swipe or regenerate replaces that attempt, so it reads what it read.
 */
async function usedByAReply(store: RunStore, task: AgentTaskRecord, current: { runId: string; chat: ChatIdentity }): Promise<boolean> {
  for (const runId of offeredTo(task)) {
    if (runId === current.runId) continue;
    const run = await store.getRun(runId);
    if (run?.chat && mayReuseForSameMessage(run.chat, current.chat)) continue;
    if (run && endedWithReply(run)) return true;
  }
  return false;
}

/** What `readableResult` lets this writer read of an earlier task, as an offer named `name`. */
async function offer(store: RunStore, task: AgentTaskRecord, name: string, kind: EarlierResult['kind']): Promise<EarlierResult | undefined> {
  const readable = readableResult(task, await readCapsule(store, task));
  return readable ? { name, title: task.task.title, capsule: readable.capsule, editedByUser: readable.editedByUser, kind, task } : undefined;
}

/**
 * The earlier results of the conversation this run may read, by the one rule (readable-result.ts):
 * results that came after an earlier run's reply and no run has used yet (a run uses them once it
 * ends with a reply), and, for a swipe or regenerate of the same message (same `historyKey`), the
 * completed results of the newest earlier attempt that asked helpers (one that reused results asked none). An edit of an earlier message changes the key, so those are
 * stale and not offered. A resumed run (`resumed`) is offered again exactly what it was offered.
 * A swipe of a message is offered the results that came after the reply before it even when the
 * first attempt at the message used them (it replaces that attempt).
 * Which identities may share is decided in `chat-identity.ts` (a guessed identity never reuses for the same message).
 */
export async function findEarlierResults(
  store: RunStore,
  run: AgentRun,
  chat: ChatIdentity,
  options: { resumed?: boolean; /** The reply the page shows before this turn's message: an after-the-reply result goes only with its own reply. */ previousReply?: string } = {},
): Promise<EarlierResult[]> {
  const runs = (await store.listRuns({ origin: run.origin, limit: RUNS_LOOKED_AT, conversationId: chat.conversationId })).filter(
    (earlier) => earlier.id !== run.id && earlier.createdAt <= run.createdAt,
  );
  runs.sort((left, right) => right.createdAt - left.createdAt);
  const attempts = runs.filter((earlier) => earlier.chat !== undefined && mayReuseForSameMessage(earlier.chat, chat));
  const carried = runs.filter((earlier) => earlier.repliedAt !== undefined && earlier.chat !== undefined && mayCarryToNextTurn(earlier.chat, chat));
  // Every run's tasks are read side by side: one wait, not one per earlier attempt or turn.
  const tasksOf = new Map(await Promise.all([...new Set([...attempts, ...carried])].map(async (earlier) => [earlier.id, await store.listTasks(earlier.id)] as const)));
  const found = new Map<string, EarlierResult>();
  // The newest attempt at this message that asked helpers: an attempt that reused results asked none.
  for (const attempt of attempts) {
    const tasks = tasksOf.get(attempt.id) ?? [];
    if (tasks.length === 0) continue;
    for (const task of tasks) {
      // A result about an attempt's reply does not hold for another attempt at the message.
      if (task.status !== 'completed' || isAboutTheReply(task, attempt)) continue;
      const result = await offer(store, task, `earlier-${task.workspaceKey}`, 'same-message');
      if (result && result.capsule.status !== 'failed') found.set(result.name, result);
    }
    break;
  }
  for (const earlier of carried) {
    for (const task of tasksOf.get(earlier.id) ?? []) {
      if (task.resultDeliveredAt !== undefined) continue;
      // A sibling swipe's reply is not the one on screen: its after-the-reply result stays with it.
      if (isAboutTheReply(task, earlier) && options.previousReply !== undefined && earlier.reply !== undefined && !sameText(earlier.reply, options.previousReply)) continue;
      if (options.resumed ? !offeredTo(task).includes(run.id) : await usedByAReply(store, task, { runId: run.id, chat })) continue;
      let name = `earlier-${task.workspaceKey}`;
      for (let repeat = 2; found.has(name); repeat += 1) name = `earlier-${task.workspaceKey}-${repeat}`;
      const result = await offer(store, task, name, 'since-last-reply');
      if (result) found.set(name, result);
    }
  }
  return [...found.values()];
}

/** An earlier result's files, copied under its folder in the new run: old path → path there. */
async function copyFilesIntoRun(store: RunStore, runId: string, result: EarlierResult, now: number): Promise<Map<string, string>> {
  const copied = new Map<string, string>();
  for (const artifact of result.capsule.artifacts.slice(0, FILES_COPIED)) {
    const source = childPathForReaders(result.capsule.workspaceKey, artifact.path);
    const file = await store.readFile(result.task.runId, source);
    if (!file) continue;
    const target = `${earlierResultFolder(result.name)}${source}`;
    await store.writeFile({ runId, path: target, content: file.content, updatedAt: now });
    copied.set(artifact.path, target);
  }
  return copied;
}

/** The result as this run reads it: its files renamed to where they are now, the rest left out. */
function withFilesInThisRun(result: EarlierResult, copied: ReadonlyMap<string, string>): EarlierResult {
  const artifacts = result.capsule.artifacts.flatMap((artifact) => {
    const path = copied.get(artifact.path);
    return path === undefined ? [] : [{ ...artifact, path }];
  });
  return { ...result, capsule: { ...result.capsule, artifacts } };
}

/** Paths of an earlier result, once copied, are this run's own already. */
const asTheyAre = (path: string): string => path;

/**
 * Stores each result's full text under `summaries/earlier/<name>/result.md` in the new run (its
 * files beside it) and records the offer on the earlier task. Returns the results as this run
 * reads them, every file they name one it can open.
 */
export async function takeEarlierResults(store: RunStore, runId: string, results: readonly EarlierResult[], now: number): Promise<EarlierResult[]> {
  const taken: EarlierResult[] = [];
  for (const result of results) {
    const readable = withFilesInThisRun(result, await copyFilesIntoRun(store, runId, result, now));
    await store.writeFile({ runId, path: `${earlierResultFolder(result.name)}result.md`, content: renderResultFile(readable.capsule, asTheyAre), updatedAt: now });
    if (result.kind === 'since-last-reply') {
      const current = (await store.getTask(result.task.id)) ?? result.task;
      if (!offeredTo(current).includes(runId)) await store.putTask({ ...current, offeredToRunIds: [...(current.offeredToRunIds ?? []), runId].slice(-100) });
    }
    taken.push(readable);
  }
  return taken;
}

/** An earlier result on the resumed run: its files were copied when it started. */
export function asResumed(result: EarlierResult, runFiles: ReadonlySet<string>): EarlierResult {
  const copied = new Map<string, string>();
  for (const artifact of result.capsule.artifacts) {
    const target = `${earlierResultFolder(result.name)}${childPathForReaders(result.capsule.workspaceKey, artifact.path)}`;
    if (runFiles.has(target)) copied.set(artifact.path, target);
  }
  return withFilesInThisRun(result, copied);
}

/**
 * An earlier result as `agent.await` hands it over, read again by the one rule at that moment: a
 * review decided since the run started (after its own run ended) is what counts.
 */
export async function renderEarlierForAwaitNow(store: RunStore, result: EarlierResult): Promise<string> {
  const task = (await store.getTask(result.task.id)) ?? result.task;
  if (task.review?.state === result.task.review?.state) return renderEarlierForAwait(result);
  const now = await offer(store, task, result.name, result.kind);
  if (!now) return `### ${result.name} — discarded (from an earlier turn)\n_${result.title}_\n\nThe user discarded this result since. Go on without it.`;
  return renderEarlierForAwait({ ...now, capsule: { ...now.capsule, artifacts: now.editedByUser ? [] : result.capsule.artifacts } });
}

function statusOf(result: EarlierResult): string {
  return result.editedByUser ? 'edited by the user' : result.capsule.status;
}

function line(result: EarlierResult): string {
  const summary = capText(result.capsule.summary.replace(/\s+/g, ' ').trim(), SUMMARY_CHARS, '…');
  return `- \`${result.name}\` — ${result.title} (${statusOf(result)}): ${summary}`;
}

/** The short section the root reads in its first model call; undefined when there is nothing. */
export function renderEarlierSection(results: readonly EarlierResult[]): string | undefined {
  const sinceReply = results.filter((result) => result.kind === 'since-last-reply');
  const same = results.filter((result) => result.kind === 'same-message');
  const parts: string[] = [];
  if (sinceReply.length > 0) {
    parts.push(['## Since your last reply', 'Helpers you asked earlier finished after your reply:', ...sinceReply.map(line)].join('\n'));
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
    `### ${result.name} — ${statusOf(result)} (from an earlier turn)`,
    `_${result.title}_`,
    '',
    ...(result.editedByUser ? ['The user reviewed this result and rewrote it. Their text below is the result:', ''] : []),
    renderCapsuleBody(result.capsule, asTheyAre),
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
