import { sharedBackgroundContext } from '../src/background/background-context';
import { installRunService } from '../src/background/run-service';
import { installSiteControls } from '../src/extension/site-controls';

export default defineBackground(() => {
  // Page-hook registrations and the toolbar switch follow the settings document.
  installSiteControls();
  installRunService({ context: sharedBackgroundContext() });
});
