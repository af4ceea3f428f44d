import { browser } from 'wxt/browser';
import { RUN_PORT_NAME } from '../messaging/run-port-messages';
import { createStoredToolProtocolMemory } from '../model/tool-protocol-memory';
import type { BackgroundContext } from './background-context';
import { recordPageNotice } from './page-notices';
import { createOriginStorageQuota, type OriginStorageQuota } from './origin-storage-quota';
import { sessionSizeHints } from './origin-size-hints';
import { createRunRateLimit } from './run-rate-limit';
import { browserLorePages, createTabLoreReader } from './page-lore';
import { serveRunPort, type RunPortDependencies, type RunServicePort } from './run-port-handler';

export interface RunServiceOptions {
  context: BackgroundContext;
  /** Where run ports arrive; defaults to `browser.runtime.onConnect`. */
  connections?: { addListener(listener: (port: RunServicePort) => void): void };
  recordNotice?: RunPortDependencies['recordNotice'];
  clientOptions?: RunPortDependencies['clientOptions'];
  /** The per-origin store quota; defaults to ORIGIN_STORAGE_QUOTA_BYTES over the context's store. */
  storageQuota?: OriginStorageQuota;
}

/**
 * Serves the page bridges: each chat turn arrives on its own `retinue-run` port from a content
 * script, becomes an agent run on the shared runtime, and is answered on that port.
 *
 * @example
 * installRunService({ context: createBackgroundContext() });
 */
export function installRunService(options: RunServiceOptions): void {
  const connections = options.connections ?? (browser.runtime.onConnect as unknown as NonNullable<RunServiceOptions['connections']>);
  const dependencies: RunPortDependencies = {
    context: options.context,
    recordNotice: options.recordNotice ?? ((origin, notice) => void recordPageNotice(origin, notice).catch(() => undefined)),
    // Endpoints that refused native tools are remembered across runs and restarts.
    clientOptions: { toolProtocolMemory: createStoredToolProtocolMemory(browser.storage.local), ...options.clientOptions },
    connectionLimiters: new Map(),
    runRateLimit: createRunRateLimit(),
    // The quota's figure per site outlives the worker, so a turn after a pause reads no run to admit.
    storageQuota: options.storageQuota ?? createOriginStorageQuota({ getStore: () => options.context.getStore(), sizeHints: sessionSizeHints() }),
    pageLore: (tabId) => createTabLoreReader(tabId, browserLorePages),
  };
  connections.addListener((port) => {
    if (port.name !== RUN_PORT_NAME) return;
    // Only this extension's own content scripts drive runs; another extension, or a sender naming none, is not served.
    if (port.sender?.id !== browser.runtime.id) return;
    serveRunPort(port, dependencies);
  });
}
