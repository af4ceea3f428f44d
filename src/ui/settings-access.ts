import { browser } from 'wxt/browser';
import { SETTINGS_VERSION, settingsSchema, type Settings } from '../settings/schema';

/** What the side panel needs from the settings. */
export interface PanelSettingsAccess {
  load(): Promise<Settings>;
  onChanged(listener: (settings: Settings) => void): () => void;
  /** The global switch. */
  setGlobalEnabled(enabled: boolean): Promise<void>;
  /** Switches one site, asking for host permission first where it is needed. */
  switchSite(origin: string, enabled: boolean): Promise<{ ok: true } | { ok: false; message: string }>;
}

const SETTINGS_KEY = 'settings';

function parseStored(value: unknown): Settings {
  const parsed = settingsSchema.safeParse(value ?? { version: SETTINGS_VERSION });
  return parsed.success ? parsed.data : settingsSchema.parse({ version: SETTINGS_VERSION });
}

async function readSettings(): Promise<Settings> {
  const stored = await browser.storage.local.get(SETTINGS_KEY);
  return parseStored(stored[SETTINGS_KEY]);
}

function needsNoPermission(origin: string): boolean {
  const host = new URL(origin).hostname;
  return host === 'localhost' || host === '127.0.0.1';
}

/**
 * Settings access over `browser.storage.local`.
 * TODO(2026-11-30): replace with foundation's loadSettings/saveSettings/switchSite once merged.
 */
export function createPanelSettingsAccess(): PanelSettingsAccess {
  return {
    load: readSettings,
    onChanged(listener) {
      const onStorageChanged = (changes: Record<string, { newValue?: unknown }>, area: string) => {
        if (area === 'local' && changes[SETTINGS_KEY]) listener(parseStored(changes[SETTINGS_KEY].newValue));
      };
      browser.storage.onChanged.addListener(onStorageChanged);
      return () => browser.storage.onChanged.removeListener(onStorageChanged);
    },
    async setGlobalEnabled(enabled) {
      const settings = await readSettings();
      await browser.storage.local.set({ [SETTINGS_KEY]: { ...settings, enabled } });
    },
    async switchSite(origin, enabled) {
      if (enabled && !needsNoPermission(origin)) {
        const granted = await browser.permissions.request({ origins: [`${origin}/*`] });
        if (!granted) return { ok: false, message: origin };
      }
      const settings = await readSettings();
      const known = settings.sites.some((site) => site.origin === origin);
      const sites = known
        ? settings.sites.map((site) => (site.origin === origin ? { ...site, enabled } : site))
        : [...settings.sites, { origin, enabled, adapter: 'auto' as const }];
      await browser.storage.local.set({ [SETTINGS_KEY]: { ...settings, sites } });
      return { ok: true };
    },
  };
}
