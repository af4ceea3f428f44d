import type { HostNotice } from '../hosts/host-adapter';
import type { HostAdapterId } from '../hosts/chat-turn-request';
import type { PageRelayedFetch } from '../hosts/page-relayed-fetch';
import { PROMPT_SNAPSHOT_PATH, type PromptSnapshot } from '../hosts/prompt-snapshot';
import { RUN_STREAM_TEXT_MAX_CHARS, type BackgroundToBridgeMessage } from '../messaging/run-port-messages';
import type { ConcurrencyLimiter } from '../model/concurrency-limiter';
import type { ModelClientOptions } from '../model/create-model-client';
import type { EarlyReply } from '../runtime/agent-runtime';
import type { ReplyStreamEvent } from '../runtime/reply-stream';
import type { SiteLending } from '../settings/connection-lending';
import type { Settings } from '../settings/schema';
import type { LoreReader } from '../tools/lore-books';
import type { BackgroundContext } from './background-context';
import type { KeyedSpendLedger } from './keyed-spend-ledger';
import type { OriginStorageQuota } from './origin-storage-quota';
import { runModelResolver } from './run-model-resolver';
import type { RunRateLimit } from './run-rate-limit';

/** The slice of `runtime.Port` the run service uses. */
export interface RunServicePort {
  name: string;
  sender?: { id?: string; url?: string; origin?: string; tab?: unknown };
  postMessage(message: BackgroundToBridgeMessage): void;
  disconnect(): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
}

export interface RunPortDependencies {
  context: BackgroundContext;
  recordNotice: (origin: string, notice: HostNotice) => void;
  /** Retry timing for model clients (tests shorten it). */
  clientOptions?: Omit<ModelClientOptions, 'limiter'>;
  /** One map for every run, so parallel runs respect each connection's `maxConcurrency` together. */
  connectionLimiters: Map<string, ConcurrencyLimiter>;
  /** Run starts per origin per minute, shared by every run port. */
  runRateLimit: RunRateLimit;
  /** Keyed connections' spending per site and day, one for every run; the background's own by default. */
  keyedSpend?: KeyedSpendLedger;
  /** The run store's bytes per origin; absent: no quota (tests that are not about it). */
  storageQuota?: OriginStorageQuota;
  /** How long a run may take (tests shorten it); `ROOT_TIMEOUT_MS` by default. */
  rootTimeoutMs?: number;
  /** The lore tools' reader for a SillyTavern run, asking the tab the run came from; absent: no lore. */
  pageLore?: (tabId: number) => LoreReader;
}

/**
 * One run port as the ways of running a turn see it (a new turn, a resumed one, a helper run between
 * turns): where it comes from, what it may say to the page, and the turn's time limit.
 */
export interface RunPortSession {
  /** The sender's origin, as the browser reports it. */
  origin: string;
  port: RunServicePort;
  dependencies: RunPortDependencies;
  /** Aborted when the page stops the turn or goes away. */
  signal: AbortSignal;
  post(message: BackgroundToBridgeMessage): void;
  answerFailure(answer: { status: number; message: string }): void;
  /** The turn goes to the page's own server; the side panel says which size limit it passed. */
  passThroughOverSnapshotLimit(): void;
  /** The page gets its reply while helpers still work (a reply deadline). */
  replyEarly(early: EarlyReply): void;
  /** A run is under way: a fallback from now on ends it rather than passing the turn on at once. */
  markUnderway(): void;
  /** How long a turn may take. */
  rootTimeoutMs: number;
  /** Arms the turn's time limit to go off after `delayMs`. */
  armRootTimer(delayMs: number): void;
  clearRootTimer(): void;
}

/** Sends one reply-stream event over the port, long text in several messages. */
export function postReplyStreamEvent(event: ReplyStreamEvent, post: (message: BackgroundToBridgeMessage) => void): void {
  if (event.kind === 'reply-discarded') {
    post({ type: 'run-reply-discarded' });
    return;
  }
  const type = event.kind === 'reply-delta' ? 'run-reply-delta' : 'run-reasoning-delta';
  for (let start = 0; start < event.text.length; start += RUN_STREAM_TEXT_MAX_CHARS) {
    post({ type, text: event.text.slice(start, start + RUN_STREAM_TEXT_MAX_CHARS) });
  }
}

/** What a run tells the page as it goes: progress lines and the reply's stream. */
export function pageUpdates(session: RunPortSession) {
  return {
    onProgress: (line: string) => session.post({ type: 'run-progress', line: line.slice(0, 500) }),
    onReplyStream: (event: ReplyStreamEvent) => postReplyStreamEvent(event, (message) => session.post(message)),
  };
}

/** The page's lorebooks, read through the tab this run port came from (SillyTavern runs only). */
export function loreFor(session: RunPortSession, adapter: string): { lore?: LoreReader } {
  const tabId = (session.port.sender?.tab as { id?: unknown } | undefined)?.id;
  const pageLore = session.dependencies.pageLore;
  return adapter === 'sillytavern' && typeof tabId === 'number' && pageLore ? { lore: pageLore(tabId) } : {};
}

/** The adapter a stored run was made with. */
export function storedRunAdapter(run: { adapter: string }): HostAdapterId {
  return run.adapter === 'sillytavern' ? 'sillytavern' : 'openai-chat';
}

export function resolverFor(
  session: RunPortSession,
  run: { settings: Settings; adapter: HostAdapterId; snapshot: PromptSnapshot; pageFetch: PageRelayedFetch; lending: SiteLending },
) {
  const { recordNotice, clientOptions, connectionLimiters, keyedSpend } = session.dependencies;
  return runModelResolver({
    origin: session.origin,
    ...run,
    recordNotice,
    connectionLimiters,
    ...(clientOptions ? { clientOptions } : {}),
    ...(keyedSpend ? { keyedSpend } : {}),
  });
}

/** The page's chat a stored run started from. */
export async function storedSnapshot(session: RunPortSession, runId: string): Promise<PromptSnapshot> {
  const snapshotFile = await (await session.dependencies.context.getStore()).readFile(runId, PROMPT_SNAPSHOT_PATH);
  return snapshotFile ? (JSON.parse(snapshotFile.content) as PromptSnapshot) : { messages: [] };
}
