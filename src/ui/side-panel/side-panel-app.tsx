import { EmptyState } from './empty-state';
import { RunHistory } from './run-history';
import { RunView } from './run-view';
import type { SidePanelState } from './side-panel-state';
import { SiteBar } from './site-bar';

export interface SidePanelAppProps {
  state: SidePanelState;
  openOptions?: () => void;
  confirmDelete?: (message: string) => boolean;
}

/** The whole side panel. */
export function SidePanelApp({ state, openOptions, confirmDelete }: SidePanelAppProps) {
  return (
    <div class="side-panel">
      <SiteBar state={state} openOptions={openOptions} />
      <main>
        {state.run.value ? <RunView state={state} /> : <EmptyState />}
        <RunHistory state={state} confirmDelete={confirmDelete} />
      </main>
    </div>
  );
}
