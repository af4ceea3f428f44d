import { browser } from 'wxt/browser';
import {
  PANEL_PORT_NAME,
  parsePanelMessage,
  RUNS_DELETED_PER_MESSAGE,
  type BackgroundToPanel,
  type PanelToBackground,
} from '../messaging/panel-messages';
import type { JournalEvent } from '../records/journal';
import type { ReviewDecision } from '../records/task-review';
import type { ReviewOutcome } from '../runtime/task-review';
import type { RunStore } from '../store/run-store';
import type { LoreDecision, LoreDecisionOutcome } from './lore-decisions';

/** The parts of a `runtime.Port` the service uses (so tests can hand it a plain object). */
export interface PanelPort {
  name: string;
  sender?: { id?: string; url?: string; tab?: unknown };
  postMessage(message: BackgroundToPanel): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
}

export interface PanelServiceDependencies {
  /** The store the runtime appends to (its `onJournalAppended` is what gets forwarded); may still be opening. */
  store: RunStore | Promise<RunStore>;
  cancelRun(runId: string): void;
  cancelTask(runId: string, taskId: string): void;
  /** Approve, edit or discard a result waiting for review. */
  reviewTask(runId: string, taskId: string, decision: ReviewDecision): Promise<ReviewOutcome>;
  /** A side-panel note for the root or a running task, and the Run button (see background-context.ts). */
  sendGuidance?(runId: string, request: { taskId?: string; text: string }): Promise<PanelActionOutcome>;
  runAgent?(runId: string, agentId: string): Promise<PanelActionOutcome>;
  /** Apply or discard a lore proposal (lore-decisions.ts); absent: refused. */
  decideLore?(runId: string, proposalId: string, decision: LoreDecision): Promise<LoreDecisionOutcome>;
  /** Where Ports arrive; defaults to `browser.runtime.onConnect`. */
  connections?: { addListener(listener: (port: PanelPort) => void): void };
  /** Tells open panels the service is up; defaults to `browser.runtime.sendMessage`. */
  announce?: (message: BackgroundToPanel) => Promise<unknown>;
  /** Whether a Port comes from one of our own extension pages; defaults to checking its sender URL. */
  isTrustedPort?: (port: PanelPort) => boolean;
  /** Whether a Port comes from the side panel page itself (review decisions); defaults to checking its sender URL. */
  isSidePanelPort?: (port: PanelPort) => boolean;
}

/** What a side-panel action answers: done, or refused with what to do. */
export type PanelActionOutcome = { ok: true } | { ok: false; code: string; message: string };

type Subscription = { kind: 'none' } | { kind: 'run'; runId: string } | { kind: 'origin'; origin: string };

interface PanelClient {
  port: PanelPort;
  subscription: Subscription;
  /** Keeps journal events in order while an origin lookup is pending. */
  delivery: Promise<void>;
}

/** Extension pages (the side panel, or the panel opened as a tab) have our own URL. */
function defaultIsTrustedPort(port: PanelPort): boolean {
  const ownBase = browser.runtime.getURL('/');
  // A content script's Port carries the page's URL, so only our own pages pass.
  return port.sender?.url?.startsWith(ownBase) === true;
}

/** The side panel page (shown as a panel, or opened as a tab): the only page whose review decisions count. */
function defaultIsSidePanelPort(port: PanelPort): boolean {
  const url = port.sender?.url;
  if (url === undefined) return false;
  try {
    return new URL(url).href.split(/[?#]/)[0] === browser.runtime.getURL('/sidepanel.html');
  } catch {
    return false;
  }
}

function announceReady(announce: PanelServiceDependencies['announce']): void {
  const send = announce ?? ((message: BackgroundToPanel) => browser.runtime.sendMessage(message));
  // With no panel open there is no receiver and the promise rejects; that is the normal case.
  send({ type: 'panel-service-ready' }).catch(() => undefined);
}

/**
 * Serves the side panel: it opens a Port named `panel`, subscribes to one run or to the runs of an
 * origin, and gets each journal event as the store appends it (pushed, never polled, so an idle
 * service worker is left asleep). It can cancel a task or a run. History is read by the panel page
 * straight from the store, which it shares with the background.
 * Returns a function that stops forwarding.
 */
export function installPanelService(dependencies: PanelServiceDependencies): () => void {
  const clients = new Set<PanelClient>();
  const runOrigins = new Map<string, Promise<string | undefined>>();
  const isTrusted = dependencies.isTrustedPort ?? defaultIsTrustedPort;
  const isSidePanel = dependencies.isSidePanelPort ?? defaultIsSidePanelPort;
  const storeReady = Promise.resolve(dependencies.store);

  function originOfRun(runId: string): Promise<string | undefined> {
    let known = runOrigins.get(runId);
    if (!known) {
      known = storeReady.then((store) => store.getRun(runId)).then(
        (run) => run?.origin,
        () => undefined,
      );
      runOrigins.set(runId, known);
      // The cache only needs recent runs; keep it from growing without bound.
      if (runOrigins.size > 200) runOrigins.delete(runOrigins.keys().next().value as string);
    }
    return known;
  }

  function deliver(client: PanelClient, event: JournalEvent): void {
    const subscription = client.subscription;
    if (subscription.kind === 'none') return;
    if (subscription.kind === 'run') {
      if (event.runId === subscription.runId) post(client, { type: 'journal-event', event });
      return;
    }
    client.delivery = client.delivery.then(async () => {
      const origin = await originOfRun(event.runId);
      if (client.subscription === subscription && origin === subscription.origin) {
        post(client, { type: 'journal-event', event });
      }
    });
  }

  /** Tells every subscribed panel which runs were deleted, after what it was sent before. */
  function deliverDeleted(client: PanelClient, runIds: readonly string[]): void {
    if (client.subscription.kind === 'none') return;
    client.delivery = client.delivery.then(() => {
      for (let start = 0; start < runIds.length; start += RUNS_DELETED_PER_MESSAGE) {
        post(client, { type: 'runs-deleted', runIds: runIds.slice(start, start + RUNS_DELETED_PER_MESSAGE) });
      }
    });
  }

  function post(client: PanelClient, message: BackgroundToPanel): void {
    try {
      client.port.postMessage(message);
    } catch {
      // The panel closed between the event and the post; its disconnect listener removes it.
      clients.delete(client);
    }
  }

  function handle(client: PanelClient, message: PanelToBackground): void {
    switch (message.type) {
      case 'subscribe-run':
        client.subscription = { kind: 'run', runId: message.runId };
        return;
      case 'subscribe-origin':
        client.subscription = { kind: 'origin', origin: message.origin };
        return;
      case 'unsubscribe':
        client.subscription = { kind: 'none' };
        return;
      case 'cancel-run':
        dependencies.cancelRun(message.runId);
        return;
      case 'cancel-task':
        dependencies.cancelTask(message.runId, message.taskId);
        return;
      case 'review-task':
        review(client, message);
        return;
      case 'send-guidance':
        sidePanelAction(client, 'guidance', () => dependencies.sendGuidance?.(message.runId, { ...(message.taskId ? { taskId: message.taskId } : {}), text: message.text }));
        return;
      case 'run-agent':
        sidePanelAction(client, 'run-agent', () => dependencies.runAgent?.(message.runId, message.agentId));
        return;
      case 'decide-lore':
        decideLore(client, message);
        return;
    }
  }

  /** A side-panel-only action whose refusal is told back to that panel. */
  function sidePanelAction(client: PanelClient, name: string, act: () => Promise<PanelActionOutcome> | undefined): void {
    if (!isSidePanel(client.port)) {
      post(client, { type: 'panel-error', code: `${name}-side-panel-only`, message: 'This is done from the side panel only; open the side panel and try there.' });
      return;
    }
    const done = act() ?? Promise.resolve<PanelActionOutcome>({ ok: false, code: `${name}-unavailable`, message: 'This background cannot do that yet; reload the extension.' });
    done.then(
      (outcome) => {
        if (!outcome.ok) post(client, { type: 'panel-error', code: outcome.code.slice(0, 100), message: outcome.message.slice(0, 2_000) });
      },
      (error: unknown) => post(client, { type: 'panel-error', code: 'panel-action-failed', message: `That did not work: ${error instanceof Error ? error.message : String(error)}`.slice(0, 2_000) }),
    );
  }

  function decideLore(client: PanelClient, message: Extract<PanelToBackground, { type: 'decide-lore' }>): void {
    const decide = dependencies.decideLore;
    if (!isSidePanel(client.port) || !decide) {
      post(client, { type: 'panel-error', code: 'lore-refused', message: 'Lore proposals are applied or discarded in the side panel only; open the side panel.' });
      return;
    }
    decide(message.runId, message.proposalId, message.decision).then(
      (outcome) => {
        if (!outcome.ok) post(client, { type: 'panel-error', code: outcome.code, message: outcome.message });
      },
      (error: unknown) =>
        post(client, { type: 'panel-error', code: 'panel-action-failed', message: `The lore change could not be made: ${error instanceof Error ? error.message : String(error)}`.slice(0, 2_000) }),
    );
  }

  function review(client: PanelClient, message: Extract<PanelToBackground, { type: 'review-task' }>): void {
    if (!isSidePanel(client.port)) {
      post(client, { type: 'panel-error', code: 'review-refused', message: 'Results are reviewed in the side panel only; open the side panel to approve, edit or discard one.' });
      return;
    }
    dependencies.reviewTask(message.runId, message.taskId, message.decision).then(
      (outcome) => {
        if (!outcome.ok) post(client, { type: 'panel-error', code: outcome.code, message: outcome.message });
      },
      (error: unknown) =>
        post(client, { type: 'panel-error', code: 'panel-action-failed', message: `The review could not be saved: ${error instanceof Error ? error.message : String(error)}`.slice(0, 2_000) }),
    );
  }

  let stopped = false;
  let stopListening: () => void = () => undefined;
  // Ports are accepted at once (listeners must be registered in the worker's first turn); events
  // flow once the store is open.
  void storeReady.then(
    (store) => {
      if (stopped) return;
      const stopEvents = store.onJournalAppended((event) => {
        for (const client of clients) deliver(client, event);
      });
      const stopDeletions = store.onRunsDeleted((runIds) => {
        for (const client of clients) deliverDeleted(client, runIds);
      });
      stopListening = () => {
        stopEvents();
        stopDeletions();
      };
    },
    (error: unknown) => console.error('Retinue: the side panel gets no live updates, the run store did not open:', error),
  );

  const connections = dependencies.connections ?? (browser.runtime.onConnect as unknown as NonNullable<PanelServiceDependencies['connections']>);
  connections.addListener((port) => {
    if (stopped || port.name !== PANEL_PORT_NAME || !isTrusted(port)) return;
    const client: PanelClient = { port, subscription: { kind: 'none' }, delivery: Promise.resolve() };
    clients.add(client);
    port.onDisconnect.addListener(() => clients.delete(client));
    port.onMessage.addListener((raw) => {
      const message = parsePanelMessage(raw);
      if (!message) {
        post(client, {
          type: 'panel-error',
          code: 'panel-message-invalid',
          message: 'The background did not understand a side panel message; reload the side panel.',
        });
        return;
      }
      try {
        handle(client, message);
      } catch (error) {
        post(client, {
          type: 'panel-error',
          code: 'panel-action-failed',
          message: `The action failed: ${error instanceof Error ? error.message : String(error)}`.slice(0, 2_000),
        });
      }
    });
  });

  announceReady(dependencies.announce);

  return () => {
    stopped = true;
    stopListening();
    clients.clear();
  };
}
