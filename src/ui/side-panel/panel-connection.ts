import { browser } from 'wxt/browser';
import {
  PANEL_PORT_NAME,
  parseBackgroundMessage,
  type PanelToBackground,
} from '../../messaging/panel-messages';
import type { JournalEvent } from '../../records/journal';
import type { ReviewDecision } from '../../records/task-review';

/** The side panel's end of the Port to the background. */
export interface PanelConnection {
  subscribeRun(runId: string): void;
  subscribeOrigin(origin: string): void;
  cancelRun(runId: string): void;
  cancelTask(runId: string, taskId: string): void;
  reviewTask(runId: string, taskId: string, decision: ReviewDecision): void;
  /** A note for the root (no `taskId`) or a running task. */
  sendGuidance(runId: string, taskId: string | undefined, text: string): void;
  runAgent(runId: string, agentId: string): void;
  /** Apply or discard a helper's lore proposal. */
  decideLore?(runId: string, proposalId: string, decision: 'apply' | 'discard'): void;
  onEvent(listener: (event: JournalEvent) => void): () => void;
  /** Runs the background deleted (retention, a site's quota): history drops them. */
  onRunsDeleted(listener: (runIds: readonly string[]) => void): () => void;
  /** Called after the Port is (re)opened: events may have been missed, so re-read the store. */
  onReconnect(listener: () => void): () => void;
  /** A refusal or failure the background reported: its words, and its code (the panel words some codes itself). */
  onError(listener: (message: string, code: string) => void): () => void;
  close(): void;
}

/** The parts of `runtime.Port` used here. */
export interface PanelSidePort {
  postMessage(message: PanelToBackground): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
  disconnect(): void;
}

export interface ConnectPanelOptions {
  connect?: () => PanelSidePort;
  /** Where the background's "service ready" broadcast arrives; defaults to `browser.runtime.onMessage`. */
  broadcasts?: { addListener(listener: (message: unknown) => void): void };
}

/**
 * Opens the `panel` Port. When the service worker goes to sleep the Port closes and stays closed:
 * the panel does not wake the worker on a timer. It connects again when the background announces
 * that it started (a run woke it) or when the user acts (cancel), and re-sends its subscription.
 */
export function connectPanel(options: ConnectPanelOptions = {}): PanelConnection {
  const connect = options.connect ?? (() => browser.runtime.connect({ name: PANEL_PORT_NAME }) as unknown as PanelSidePort);
  const eventListeners = new Set<(event: JournalEvent) => void>();
  const reconnectListeners = new Set<() => void>();
  const errorListeners = new Set<(message: string, code: string) => void>();
  const deletionListeners = new Set<(runIds: readonly string[]) => void>();
  let port: PanelSidePort | undefined;
  let subscription: PanelToBackground | undefined;
  let closed = false;

  function open(): PanelSidePort {
    if (port) return port;
    const opened = connect();
    port = opened;
    opened.onDisconnect.addListener(() => {
      if (port === opened) port = undefined;
    });
    opened.onMessage.addListener((raw) => {
      const message = parseBackgroundMessage(raw);
      if (message?.type === 'journal-event') for (const listener of eventListeners) listener(message.event);
      if (message?.type === 'panel-error') for (const listener of errorListeners) listener(message.message, message.code);
      if (message?.type === 'runs-deleted') for (const listener of deletionListeners) listener(message.runIds);
    });
    if (subscription) opened.postMessage(subscription);
    return opened;
  }

  function send(message: PanelToBackground): void {
    if (closed) return;
    try {
      open().postMessage(message);
    } catch {
      // The Port died between checks (worker stopped): open a fresh one and try once more.
      port = undefined;
      open().postMessage(message);
    }
  }

  const broadcasts = options.broadcasts ?? browser.runtime.onMessage;
  broadcasts.addListener((raw: unknown) => {
    if (closed || parseBackgroundMessage(raw)?.type !== 'panel-service-ready') return;
    const hadPort = port !== undefined;
    if (hadPort) port?.disconnect();
    port = undefined;
    open();
    for (const listener of reconnectListeners) listener();
  });

  function listen<T>(set: Set<T>, listener: T): () => void {
    set.add(listener);
    return () => set.delete(listener);
  }

  open();
  return {
    subscribeRun(runId) {
      subscription = { type: 'subscribe-run', runId };
      send(subscription);
    },
    subscribeOrigin(origin) {
      subscription = { type: 'subscribe-origin', origin };
      send(subscription);
    },
    cancelRun: (runId) => send({ type: 'cancel-run', runId }),
    cancelTask: (runId, taskId) => send({ type: 'cancel-task', runId, taskId }),
    reviewTask: (runId, taskId, decision) => send({ type: 'review-task', runId, taskId, decision }),
    sendGuidance: (runId, taskId, text) => send({ type: 'send-guidance', runId, ...(taskId ? { taskId } : {}), text }),
    runAgent: (runId, agentId) => send({ type: 'run-agent', runId, agentId }),
    decideLore: (runId, proposalId, decision) => send({ type: 'decide-lore', runId, proposalId, decision }),
    onEvent: (listener) => listen(eventListeners, listener),
    onRunsDeleted: (listener) => listen(deletionListeners, listener),
    onReconnect: (listener) => listen(reconnectListeners, listener),
    onError: (listener) => listen(errorListeners, listener),
    close() {
      closed = true;
      port?.disconnect();
      port = undefined;
    },
  };
}
