import { fakeBrowser } from 'wxt/testing/fake-browser';
import { loadSettingsWithErrors, onSettingsChanged, saveSettings } from '../../src/settings/settings-store';
import { createOptionsState, type OptionsState } from '../../src/ui/options/options-state';
import { installEnglishMessages } from './english-messages';

export interface OptionsTestState {
  state: OptionsState;
  /** Origins the page asked permission for (loopback is granted without asking). */
  permissionRequests: string[];
  /** Files the page offered for download. */
  downloads: Array<{ fileName: string; content: string }>;
  /** What the next permission request answers. */
  grantPermission: boolean;
}

/**
 * The options page's state over WXT's fake browser storage, as the options tests render it: real
 * settings store, English messages, recorded permission requests and downloads, no network.
 */
export function createOptionsTestState(): OptionsTestState {
  fakeBrowser.reset();
  installEnglishMessages();
  const recorded: OptionsTestState = { state: undefined as never, permissionRequests: [], downloads: [], grantPermission: true };
  recorded.state = createOptionsState({
    load: loadSettingsWithErrors,
    save: saveSettings,
    onChanged: (listener) => onSettingsChanged((settings) => listener(settings)),
    requestOriginPermission: async (origin) => {
      if (origin.startsWith('http://127.0.0.1')) return true;
      recorded.permissionRequests.push(origin);
      return recorded.grantPermission;
    },
    switchSite: async () => ({ ok: true }),
    fetch: () => Promise.reject(new Error('no network in this test')),
    download: (fileName, content) => void recorded.downloads.push({ fileName, content }),
  });
  return recorded;
}
