import { render } from 'preact';
import { openRunStore } from '../../store/idb-run-store';
import { createPanelSettingsAccess } from '../settings-access';
import { watchCurrentOrigin } from './current-origin';
import { connectPanel } from './panel-connection';
import { SidePanelApp } from './side-panel-app';
import { createSidePanelState } from './side-panel-state';
import '../theme.css';
import './side-panel.css';

/** Starts the side panel in `container`: opens the store and the Port, follows the current site. */
export async function mountSidePanel(container: HTMLElement): Promise<void> {
  document.documentElement.lang = navigator.language;
  const store = await openRunStore();
  const state = createSidePanelState({ store, connection: connectPanel(), settings: createPanelSettingsAccess() });
  watchCurrentOrigin((origin) => void state.setOrigin(origin));
  addEventListener('pagehide', () => {
    state.dispose();
    store.close();
  });
  render(<SidePanelApp state={state} />, container);
}
