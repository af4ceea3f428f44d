import { switchSite } from '../extension/site-switch';
import type { Settings } from '../settings/schema';
import { loadSettings, onSettingsChanged, updateSettings } from '../settings/settings-store';

/** What the side panel needs from the settings. */
export interface PanelSettingsAccess {
  load(): Promise<Settings>;
  onChanged(listener: (settings: Settings) => void): () => void;
  /** The global switch. */
  setGlobalEnabled(enabled: boolean): Promise<void>;
  /** Switches one site, asking for host permission first where it is needed (call from a click). */
  switchSite(origin: string, enabled: boolean): Promise<{ ok: true } | { ok: false; message: string }>;
}

/** The side panel's settings access over foundation's settings store and site switch. */
export function createPanelSettingsAccess(): PanelSettingsAccess {
  return {
    load: loadSettings,
    onChanged: (listener) => onSettingsChanged((settings) => listener(settings)),
    async setGlobalEnabled(enabled) {
      await updateSettings((settings) => ({ ...settings, enabled }));
    },
    async switchSite(origin, enabled) {
      const outcome = await switchSite(origin, enabled);
      return outcome.status === 'permission-refused' ? { ok: false, message: outcome.message } : { ok: true };
    },
  };
}
