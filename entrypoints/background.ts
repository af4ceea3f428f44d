// First: zod must be jitless before any schema is built (no eval-like code at run time).
import '../src/zod-jitless';
import { defineBackground } from 'wxt/utils/define-background';
import { sharedBackgroundContext } from '../src/background/background-context';
import { installInterruptedRunRecovery } from '../src/background/interrupted-runs';
import { installPanelService } from '../src/background/panel-service';
import { decideLoreProposal } from '../src/background/lore-decisions';
import { browserLorePages, saveLoreThroughTabs, tabsOfOrigin } from '../src/background/page-lore';
import { installRunRetention } from '../src/background/run-retention';
import { installRunService } from '../src/background/run-service';
import { installWarmUpService } from '../src/background/warm-up-service';
import { installSiteControls } from '../src/extension/site-controls';
import { originsSwitchedOn } from '../src/settings/sites-on';

export default defineBackground(() => {
  // Page-hook registrations and the toolbar switch follow the settings document.
  installSiteControls();
  const context = sharedBackgroundContext();
  installRunService({ context });
  // The bridge starts the background while the user writes, so a turn after a pause finds it ready.
  installWarmUpService({ context });
  // Runs a previous worker left working: resumed if their page reconnects, else marked interrupted.
  installInterruptedRunRecovery({ context });
  // Old runs go by the retention setting: at start-up and after a run ends, at most once a day.
  installRunRetention({ context });
  // The side panel: live journal events of the runs it shows, its cancel buttons and its review decisions.
  installPanelService({
    store: context.getStore(),
    cancelRun: (runId) => context.cancelRun(runId),
    cancelTask: (runId, taskId) => context.cancelTask(runId, taskId),
    reviewTask: (runId, taskId, decision) => context.reviewTask(runId, taskId, decision),
    sendGuidance: (runId, request) => context.sendGuidance(runId, request),
    runAgent: (runId, agentId) => context.runAgent(runId, agentId),
    decideLore: async (runId, proposalId, decision) =>
      decideLoreProposal({
        store: await context.getStore(),
        runId,
        proposalId,
        decision,
        isSiteOn: async (origin) => originsSwitchedOn(await context.getSettings()).includes(origin),
        save: async (origin, change) => saveLoreThroughTabs(await tabsOfOrigin(origin), change, browserLorePages),
      }),
  });
});
