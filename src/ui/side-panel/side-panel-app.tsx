import { EmptyState } from './empty-state';
import { KeyedSpendLine } from './keyed-spend-line';
import { PageNoticeLines } from './page-notice-lines';
import { RunHistory } from './run-history';
import { RunView } from './run-view';
import type { SidePanelState } from './side-panel-state';
import { SiteBar } from './site-bar';

export interface SidePanelAppProps {
  state: SidePanelState;
  openOptions?: () => void;
}

/** The whole side panel. */
export function SidePanelApp({ state, openOptions }: SidePanelAppProps) {
  const settings = state.settings.value;
  const site = settings?.sites.find((entry) => entry.origin === state.origin.value);
  const siteIsOn = (settings?.enabled ?? false) && (site?.enabled ?? false);
  return (
    <div class="side-panel">
      <SiteBar state={state} openOptions={openOptions} />
      <PageNoticeLines origin={state.origin.value} />
      <KeyedSpendLine origin={state.origin.value} />
      <main>
        {state.run.value ? <RunView state={state} /> : <EmptyState siteIsOn={siteIsOn} />}
        <RunHistory state={state} />
      </main>
    </div>
  );
}
