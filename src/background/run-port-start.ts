import { ConfigurationError } from '../errors';
import { chooseHostAdapter } from '../hosts/host-adapters';
import type { PageRelayedFetch } from '../hosts/page-relayed-fetch';
import type { BridgeToBackgroundMessage } from '../messaging/run-port-messages';
import type { RunOutcome } from '../runtime/agent-runtime';
import type { Settings } from '../settings/schema';
import { findSite, replyDeadlineMsFor, rootProfileIdFor } from '../settings/site-settings';
import { utf8Bytes } from './origin-storage-quota';
import { pageAnswerForUnreadableRequest } from './page-error-text';
import { lendingOf } from './run-model-resolver';
import { loreFor, pageUpdates, resolverFor, type RunPortSession } from './run-port-session';

type RunStartMessage = Extract<BridgeToBackgroundMessage, { type: 'run-start' }>;

/**
 * A new chat turn: the page's request read by its host adapter, then the limits a turn passes before
 * it runs (runs per minute, the site's stored bytes), then the run. A turn that cannot or may not run
 * goes to the page's own server (`pass-through`), and the side panel says why.
 */
export async function startChatTurn(session: RunPortSession, message: RunStartMessage, settings: Settings, pageFetch: PageRelayedFetch): Promise<RunOutcome | undefined> {
  const { origin, dependencies } = session;
  const site = findSite(settings, origin);
  const adapter = chooseHostAdapter(site?.adapter ?? 'auto', message.adapter);
  if (!adapter) {
    session.post({ type: 'pass-through' });
    return undefined;
  }
  let reading;
  try {
    reading = adapter.readRequest(message.body);
  } catch (error) {
    if (error instanceof ConfigurationError && error.code === 'snapshot-too-large') session.passThroughOverSnapshotLimit();
    else session.answerFailure(pageAnswerForUnreadableRequest(error instanceof ConfigurationError ? error.message : String(error)));
    return undefined;
  }
  if (reading.kind === 'pass-through') {
    dependencies.recordNotice(origin, reading.notice);
    session.post({ type: 'pass-through' });
    return undefined;
  }
  // Over the limit the turn is not dropped: it goes to the page's own server, and the side panel says why.
  if (!dependencies.runRateLimit.tryStart(origin)) {
    dependencies.recordNotice(origin, {
      code: 'limit-runs-per-minute',
      messageKey: 'page_notice_limit_runs_per_minute',
      substitutions: [String(dependencies.runRateLimit.perMinute)],
    });
    session.post({ type: 'pass-through' });
    return undefined;
  }
  // The site's stored runs stay under its quota: oldest pruned first; if still over, the turn passes through.
  const quota = dependencies.storageQuota;
  // The quota's reads, the site's lending and the runtime are independent: read side by side.
  const [admitted, lending, runtime] = await Promise.all([
    quota ? quota.admit(origin, utf8Bytes(JSON.stringify(reading.snapshot))) : true,
    lendingOf(origin),
    dependencies.context.getRuntime(),
  ]);
  if (!admitted) {
    dependencies.recordNotice(origin, {
      code: 'limit-origin-storage',
      messageKey: 'page_notice_limit_origin_storage',
      substitutions: [String(Math.round((quota?.quotaBytes ?? 0) / (1024 * 1024)))],
    });
    session.post({ type: 'pass-through' });
    return undefined;
  }
  session.markUnderway();
  return runtime.startRun({
    origin,
    adapter: adapter.id,
    snapshot: reading.snapshot,
    rootProfileId: rootProfileIdFor(settings, origin),
    resolveModel: resolverFor(session, { settings, adapter: adapter.id, snapshot: reading.snapshot, pageFetch, lending }),
    signal: session.signal,
    ...pageUpdates(session),
    onRunCreated: (run) => session.post({ type: 'run-accepted', runId: run.id }),
    replyDeadlineMs: replyDeadlineMsFor(settings, origin),
    ...(message.chat ? { chat: message.chat } : {}),
    onEarlyReply: (early) => session.replyEarly(early),
    ...loreFor(session, adapter.id),
  });
}
