import type { JournalEvent } from '../../src/records/journal';
import { settingsSchema, type Settings } from '../../src/settings/schema';
import type { PanelSettingsAccess } from '../../src/ui/settings-access';
import type { PanelConnection } from '../../src/ui/side-panel/panel-connection';

/** The panel's Port, with what it sent recorded and a way to push journal events and deletions to it. */
export function createFakePanelConnection() {
  const eventListeners = new Set<(event: JournalEvent) => void>();
  const deletionListeners = new Set<(runIds: readonly string[]) => void>();
  const sent: unknown[] = [];
  const connection: PanelConnection & { sent: unknown[]; push(event: JournalEvent): void; pushDeleted(runIds: readonly string[]): void } = {
    sent,
    push: (event) => eventListeners.forEach((listener) => listener(event)),
    pushDeleted: (runIds) => deletionListeners.forEach((listener) => listener(runIds)),
    subscribeRun: (runId) => void sent.push({ type: 'subscribe-run', runId }),
    subscribeOrigin: (origin) => void sent.push({ type: 'subscribe-origin', origin }),
    cancelRun: (runId) => void sent.push({ type: 'cancel-run', runId }),
    cancelTask: (runId, taskId) => void sent.push({ type: 'cancel-task', runId, taskId }),
    reviewTask: (runId, taskId, decision) => void sent.push({ type: 'review-task', runId, taskId, decision }),
    sendGuidance: (runId, taskId, text) => void sent.push({ type: 'send-guidance', runId, ...(taskId ? { taskId } : {}), text }),
    runAgent: (runId, agentId) => void sent.push({ type: 'run-agent', runId, agentId }),
    onEvent: (listener) => {
      eventListeners.add(listener);
      return () => eventListeners.delete(listener);
    },
    onRunsDeleted: (listener) => {
      deletionListeners.add(listener);
      return () => deletionListeners.delete(listener);
    },
    onReconnect: () => () => undefined,
    onError: () => () => undefined,
    close: () => undefined,
  };
  return connection;
}

/** Settings kept in memory, recording the switches the panel flipped. */
export function createMemorySettingsAccess(initial: Partial<Settings> = {}) {
  let settings = settingsSchema.parse({ version: 1, ...initial });
  const listeners = new Set<(next: Settings) => void>();
  const switches: Array<{ origin: string; enabled: boolean }> = [];
  const save = (next: Settings) => {
    settings = next;
    listeners.forEach((listener) => listener(next));
  };
  const access: PanelSettingsAccess & { switches: typeof switches; current(): Settings } = {
    switches,
    current: () => settings,
    load: async () => settings,
    onChanged: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setGlobalEnabled: async (enabled) => save({ ...settings, enabled }),
    switchSite: async (origin, enabled) => {
      switches.push({ origin, enabled });
      const others = settings.sites.filter((site) => site.origin !== origin);
      save({ ...settings, sites: [...others, { origin, enabled, adapter: 'auto' }] });
      return { ok: true };
    },
  };
  return access;
}
