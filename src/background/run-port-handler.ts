import { CancelledError, ConfigurationError, HostContractError, RetinueError } from '../errors';
import type { HostNotice } from '../hosts/host-adapter';
import type { LoreReader } from '../tools/lore-books';
import { chooseHostAdapter } from '../hosts/host-adapters';
import { createPageRelayedFetch, type PageRelayedFetch } from '../hosts/page-relayed-fetch';
import type { HostAdapterId } from '../hosts/chat-turn-request';
import { PROMPT_SNAPSHOT_PATH, SNAPSHOT_LIMITS, type PromptSnapshot } from '../hosts/prompt-snapshot';
import {
  bridgeToBackgroundMessageSchema,
  RUN_STREAM_TEXT_MAX_CHARS,
  type BackgroundToBridgeMessage,
  type BridgeToBackgroundMessage,
} from '../messaging/run-port-messages';
import type { ConcurrencyLimiter } from '../model/concurrency-limiter';
import type { ModelClientOptions } from '../model/create-model-client';
import type { SiteLending } from '../settings/connection-lending';
import { lendingOf, runModelResolver } from './run-model-resolver';
import type { KeyedSpendLedger } from './keyed-spend-ledger';
import type { RunFallback } from '../records/run';
import type { EarlyReply, RunOutcome } from '../runtime/agent-runtime';
import { fallbackForError, PageModelFallbackError } from '../runtime/fail-open';
import type { ReplyStreamEvent } from '../runtime/reply-stream';
import type { Settings } from '../settings/schema';
import { findSite, isSiteSwitchedOn, replyDeadlineMsFor, rootProfileIdFor } from '../settings/site-settings';
import type { BackgroundContext } from './background-context';
import { whileHeld } from './background-keep-alive';
import { utf8Bytes, type OriginStorageQuota } from './origin-storage-quota';
import type { RunRateLimit } from './run-rate-limit';
import { pageAnswerForCrash, pageAnswerForInterruptedRun, pageAnswerForRun, pageAnswerForUnreadableRequest } from './page-error-text';

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
  /** How long a run may take (tests shorten it); {@link ROOT_TIMEOUT_MS} by default. */
  rootTimeoutMs?: number;
  /** The lore tools' reader for a SillyTavern run, asking the tab the run came from; absent: no lore. */
  pageLore?: (tabId: number) => LoreReader;
}

/** The longest a chat turn's run may take; then the page gets its own generation and the run says why. */
export const ROOT_TIMEOUT_MS = 10 * 60_000;

type RunBeginning = Extract<BridgeToBackgroundMessage, { type: 'run-start' | 'run-resume' | 'run-between' }>;

/**
 * The origin a run port really comes from: the sender's frame, as the browser reports it. An origin
 * the page writes in a message is never trusted.
 */
export function senderOrigin(sender: RunServicePort['sender']): string | undefined {
  if (!sender?.tab) return undefined;
  if (sender.origin && sender.origin !== 'null') return sender.origin;
  try {
    return sender.url ? new URL(sender.url).origin : undefined;
  } catch {
    return undefined;
  }
}

/** Sends one reply-stream event over the port, long text in several messages. */
function postReplyStreamEvent(event: ReplyStreamEvent, post: (message: BackgroundToBridgeMessage) => void): void {
  if (event.kind === 'reply-discarded') {
    post({ type: 'run-reply-discarded' });
    return;
  }
  const type = event.kind === 'reply-delta' ? 'run-reply-delta' : 'run-reasoning-delta';
  for (let start = 0; start < event.text.length; start += RUN_STREAM_TEXT_MAX_CHARS) {
    post({ type, text: event.text.slice(start, start + RUN_STREAM_TEXT_MAX_CHARS) });
  }
}

/**
 * Serves one run port: `run-start` (or `run-resume` after the service worker restarted) runs the
 * turn; progress, the reply or an error in words go back; `run-abort` or the port's loss cancels the
 * run and its children; host calls relay through the page.
 */
export function serveRunPort(port: RunServicePort, dependencies: RunPortDependencies): void {
  const origin = senderOrigin(port.sender);
  if (!origin) {
    port.disconnect();
    return;
  }
  const abort = new AbortController();
  let relay: PageRelayedFetch | undefined;
  let begun = false;
  let runUnderway = false;
  /** The page has its reply while helpers still work: losing the page no longer stops the run. */
  let repliedEarly = false;
  let closed = false;
  const post = (message: BackgroundToBridgeMessage) => {
    if (closed) return;
    try {
      port.postMessage(message);
    } catch {
      closed = true;
    }
  };

  let rootTimer: ReturnType<typeof setTimeout> | undefined;
  const rootTimeoutMs = dependencies.rootTimeoutMs ?? ROOT_TIMEOUT_MS;
  /** Over the time limit the turn is not lost: the page gets its own generation and the run says why. */
  const armRootTimer = (delayMs: number): void => {
    clearTimeout(rootTimer);
    rootTimer = setTimeout(() => {
      const minutes = Math.max(1, Math.round(rootTimeoutMs / 60_000));
      fallBackToPageModel({ code: 'limit-root-timeout', reason: `The turn ran past Retinue's limit of ${minutes} minutes for one reply.` });
    }, Math.max(0, delayMs));
  };
  port.onDisconnect.addListener(() => {
    clearTimeout(rootTimer);
    closed = true;
    relay?.failAll('The page went away.');
    if (!repliedEarly) abort.abort(new CancelledError('The page went away before the reply was finished.'));
  });
  port.onMessage.addListener((raw) => {
    const parsed = bridgeToBackgroundMessageSchema.safeParse(raw);
    if (!parsed.success) return;
    const message = parsed.data;
    if (message.type === 'run-start' || message.type === 'run-resume' || message.type === 'run-between') {
      if (begun) return;
      begun = true;
      relay = createPageRelayedFetch(post);
      armRootTimer(rootTimeoutMs);
      // The browser would unload an idle background mid-run (Firefox even with the port open): hold it.
      const pageFetch = relay;
      void whileHeld(dependencies.context.keepAlive, () => begin(message, pageFetch))
        .catch((error: unknown) => {
          runUnderway = false;
          const fallback = fallbackForError(error instanceof RetinueError ? error : new HostContractError('unexpected-error', String(error)));
          if (fallback) fallBackToPageModel(fallback);
          else answerFailure(pageAnswerForCrash(error));
        })
        .finally(() => clearTimeout(rootTimer));
    } else if (message.type === 'run-over-limit') {
      if (begun) return;
      begun = true;
      passThroughOverSnapshotLimit();
    } else if (message.type === 'run-abort') {
      if (repliedEarly) return;
      abort.abort(new CancelledError('The page stopped the generation.'));
    } else if (message.type !== 'keep-alive') {
      relay?.deliver(message);
    }
  });

  /** A turn over the snapshot size passes to the page's own server; the side panel says which limit. */
  function passThroughOverSnapshotLimit(): void {
    dependencies.recordNotice(origin as string, {
      code: 'limit-snapshot-size',
      messageKey: 'page_notice_limit_snapshot_size',
      substitutions: [String(SNAPSHOT_LIMITS.maxChars)],
    });
    post({ type: 'pass-through' });
  }

  const answerFailure = ({ status, message }: { status: number; message: string }) => post({ type: 'run-failed', status, message });

  /**
   * Fail open (DESIGN.md §13): the page's original request goes, unmodified, to the page's own server
   * and the side panel says why. A run under way ends `failed` with `fallback` set (its end then sends
   * the page on); without one, a page notice keeps the reason.
   *
   * @example
   * fallBackToPageModel({ code: 'limit-root-timeout', reason: 'The turn ran past the 10-minute limit.' });
   */
  function fallBackToPageModel(fallback: RunFallback): void {
    if (runUnderway && !abort.signal.aborted) {
      abort.abort(new PageModelFallbackError(fallback));
      return;
    }
    dependencies.recordNotice(origin as string, { code: `fallback-${fallback.code}`, messageKey: 'page_notice_fallback', substitutions: [fallback.reason] });
    post({ type: 'pass-through' });
  }

  async function begin(message: RunBeginning, pageFetch: PageRelayedFetch): Promise<void> {
    const settings = await dependencies.context.getSettings();
    if (!isSiteSwitchedOn(settings, origin as string)) {
      post({ type: 'pass-through' });
      return;
    }
    const outcome =
      message.type === 'run-start'
        ? await startRun(message, settings, pageFetch)
        : message.type === 'run-between'
          ? await runBetweenTurns(message, settings, pageFetch)
          : await resumeRun(message.runId, settings, pageFetch);
    runUnderway = false;
    if (!outcome || outcome.suspended) return;
    if (repliedEarly) post({ type: 'run-closed' });
    else if (outcome.run.status === 'completed') post({ type: 'run-reply', reply: outcome.reply, ...(outcome.replyStreamed ? { streamed: true } : {}) });
    else if (outcome.run.fallback) post({ type: 'pass-through' });
    else answerFailure(pageAnswerForRun(outcome.run));
  }

  async function startRun(message: Extract<RunBeginning, { type: 'run-start' }>, settings: Settings, pageFetch: PageRelayedFetch) {
    const site = findSite(settings, origin as string);
    const adapter = chooseHostAdapter(site?.adapter ?? 'auto', message.adapter);
    if (!adapter) {
      post({ type: 'pass-through' });
      return undefined;
    }
    let reading;
    try {
      reading = adapter.readRequest(message.body);
    } catch (error) {
      if (error instanceof ConfigurationError && error.code === 'snapshot-too-large') passThroughOverSnapshotLimit();
      else answerFailure(pageAnswerForUnreadableRequest(error instanceof ConfigurationError ? error.message : String(error)));
      return undefined;
    }
    if (reading.kind === 'pass-through') {
      dependencies.recordNotice(origin as string, reading.notice);
      post({ type: 'pass-through' });
      return undefined;
    }
    // Over the limit the turn is not dropped: it goes to the page's own server, and the side panel says why.
    if (!dependencies.runRateLimit.tryStart(origin as string)) {
      dependencies.recordNotice(origin as string, {
        code: 'limit-runs-per-minute',
        messageKey: 'page_notice_limit_runs_per_minute',
        substitutions: [String(dependencies.runRateLimit.perMinute)],
      });
      post({ type: 'pass-through' });
      return undefined;
    }
    // The site's stored runs stay under its quota: oldest pruned first; if still over, the turn passes through.
    const quota = dependencies.storageQuota;
    // The quota's reads, the site's lending and the runtime are independent: read side by side.
    const [admitted, lending, runtime] = await Promise.all([
      quota ? quota.admit(origin as string, utf8Bytes(JSON.stringify(reading.snapshot))) : true,
      lendingOf(origin as string),
      dependencies.context.getRuntime(),
    ]);
    if (!admitted) {
      dependencies.recordNotice(origin as string, {
        code: 'limit-origin-storage',
        messageKey: 'page_notice_limit_origin_storage',
        substitutions: [String(Math.round((quota?.quotaBytes ?? 0) / (1024 * 1024)))],
      });
      post({ type: 'pass-through' });
      return undefined;
    }
    runUnderway = true;
    return runtime.startRun({
      origin: origin as string,
      adapter: adapter.id,
      snapshot: reading.snapshot,
      rootProfileId: rootProfileIdFor(settings, origin as string),
      resolveModel: resolverFor(settings, adapter.id, reading.snapshot, pageFetch, lending),
      signal: abort.signal,
      onProgress: (line) => post({ type: 'run-progress', line: line.slice(0, 500) }),
      onReplyStream: (event) => postReplyStreamEvent(event, post),
      onRunCreated: (run) => post({ type: 'run-accepted', runId: run.id }),
      replyDeadlineMs: replyDeadlineMsFor(settings, origin as string),
      ...(message.chat ? { chat: message.chat } : {}),
      onEarlyReply: replyEarly,
      ...loreFor(adapter.id),
    });
  }

  /** The reply went out while helpers still work (a reply deadline), for a run started or resumed here. */
  function replyEarly(early: EarlyReply): void {
    repliedEarly = true;
    // The turn has its reply: the time limit for one reply no longer applies to the helpers.
    clearTimeout(rootTimer);
    post({ type: 'run-reply', reply: early.reply, helpersWorking: early.stillWorking, ...(early.replyStreamed ? { streamed: true } : {}) });
  }

  /** The Run button between turns: the helper runs on the ended run, its model calls through this page; nothing goes into the chat. */
  async function runBetweenTurns(message: Extract<RunBeginning, { type: 'run-between' }>, settings: Settings, pageFetch: PageRelayedFetch): Promise<RunOutcome | undefined> {
    // The turn's reply went out long ago: its time limit does not apply; the helper has its own.
    clearTimeout(rootTimer);
    const store = await dependencies.context.getStore();
    const run = await store.getRun(message.runId);
    const settle = (outcome: { ok: true } | { ok: false; code: string; message: string }) => dependencies.context.betweenTurns.settle(message.runId, message.agentId, outcome);
    if (!run || run.origin !== origin) {
      settle({ ok: false, code: 'run-agent-no-run', message: 'This run is no longer stored; open the latest run of the chat and try again.' });
      post({ type: 'run-closed' });
      return undefined;
    }
    const runtime = await dependencies.context.getRuntime();
    runUnderway = true;
    const started = await runtime.runAgentBetweenTurns(run.id, {
      agentId: message.agentId,
      resolveModel: resolverFor(settings, run.adapter === 'sillytavern' ? 'sillytavern' : 'openai-chat', await storedSnapshot(run.id), pageFetch, await lendingOf(origin as string)),
      signal: abort.signal,
      ...loreFor(run.adapter),
    });
    settle(started.ok ? { ok: true } : started);
    if (started.ok && started.done) return started.done;
    post({ type: 'run-closed' });
    return undefined;
  }

  async function storedSnapshot(runId: string): Promise<PromptSnapshot> {
    const snapshotFile = await (await dependencies.context.getStore()).readFile(runId, PROMPT_SNAPSHOT_PATH);
    return snapshotFile ? (JSON.parse(snapshotFile.content) as PromptSnapshot) : { messages: [] };
  }

  async function resumeRun(runId: string, settings: Settings, pageFetch: PageRelayedFetch): Promise<RunOutcome | undefined> {
    const store = await dependencies.context.getStore();
    const run = await store.getRun(runId);
    // A page may only pick up its own origin's runs (and never learns run ids in the first place).
    if (!run || run.origin !== origin) {
      answerFailure(pageAnswerForCrash(new Error('There is no run of this page to continue.')));
      return undefined;
    }
    // The start-up sweep may have given this run up already (the page came back too late).
    if (!dependencies.context.runClaims.claimForResume(runId)) {
      answerFailure(pageAnswerForInterruptedRun());
      return undefined;
    }
    try {
      const snapshot = await storedSnapshot(runId);
      post({ type: 'run-accepted', runId });
      const lending = await lendingOf(origin as string);
      const runtime = await dependencies.context.getRuntime();
      // The turn's time limit runs from the run's start, not from the reconnect (a reply already sent
      // has none). Armed only once the run is underway, so a limit already past ends the resumed run
      // itself (recorded on it) rather than a run not yet resumed.
      if (run.repliedAt === undefined) armRootTimer(run.createdAt + rootTimeoutMs - Date.now());
      else clearTimeout(rootTimer);
      runUnderway = true;
      return await runtime.resumeRun(runId, {
        resolveModel: resolverFor(settings, run.adapter === 'sillytavern' ? 'sillytavern' : 'openai-chat', snapshot, pageFetch, lending),
        signal: abort.signal,
        onProgress: (line) => post({ type: 'run-progress', line: line.slice(0, 500) }),
        onReplyStream: (event) => postReplyStreamEvent(event, post),
        onEarlyReply: replyEarly,
        ...loreFor(run.adapter),
      });
    } finally {
      dependencies.context.runClaims.releaseResume(runId);
    }
  }

  /** The page's lorebooks, read through the tab this run port came from (SillyTavern runs only). */
  function loreFor(adapter: string): { lore?: LoreReader } {
    const tabId = (port.sender?.tab as { id?: unknown } | undefined)?.id;
    return adapter === 'sillytavern' && typeof tabId === 'number' && dependencies.pageLore ? { lore: dependencies.pageLore(tabId) } : {};
  }

  function resolverFor(settings: Settings, adapter: HostAdapterId, snapshot: PromptSnapshot, pageFetch: PageRelayedFetch, lending: SiteLending) {
    const { recordNotice, clientOptions, connectionLimiters, keyedSpend } = dependencies;
    return runModelResolver({ origin: origin as string, settings, adapter, snapshot, pageFetch, lending, recordNotice, connectionLimiters, ...(clientOptions ? { clientOptions } : {}), ...(keyedSpend ? { keyedSpend } : {}) });
  }
}
