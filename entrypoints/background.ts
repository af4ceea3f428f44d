import { installSiteControls } from '../src/extension/site-controls';

export default defineBackground(() => {
  // Page-hook registrations and the toolbar switch follow the settings document.
  installSiteControls();
  // Wiring of the runtime and the store lands with the foundation issues.
});
