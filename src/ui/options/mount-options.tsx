import { render } from 'preact';
import { browser } from 'wxt/browser';
import { currentBrowserName, isUpFrontOrigin, originMatchPattern } from '../../extension/origins';
import { switchSite } from '../../extension/site-switch';
import { loadSettingsWithErrors, onSettingsChanged, saveSettings } from '../../settings/settings-store';
import { downloadText } from '../side-panel/run-export';
import { OptionsApp } from './options-app';
import { createOptionsState } from './options-state';
import '../theme.css';
import './options.css';

/** Starts the options page in `container`, wired to the real settings store and browser. */
export function mountOptions(container: HTMLElement): void {
  document.documentElement.lang = navigator.language;
  const state = createOptionsState({
    load: loadSettingsWithErrors,
    save: saveSettings,
    onChanged: (listener) => onSettingsChanged((settings) => listener(settings)),
    requestOriginPermission: (origin) =>
      isUpFrontOrigin(origin) ? Promise.resolve(true) : browser.permissions.request({ origins: [originMatchPattern(origin, currentBrowserName())] }),
    switchSite: async (origin, enabled) => {
      const outcome = await switchSite(origin, enabled);
      return outcome.status === 'permission-refused' ? { ok: false, message: outcome.message } : { ok: true };
    },
    fetch: (input, init) => fetch(input, init),
    download: (fileName, content) => downloadText(fileName, content, fileName.endsWith('.md') ? 'text/markdown' : 'application/json'),
  });
  addEventListener('pagehide', () => state.dispose());
  render(<OptionsApp state={state} />, container);
}
