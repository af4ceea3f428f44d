import type { browser as wxtBrowser } from 'wxt/browser';

/**
 * The extension API in the bridge, without `webextension-polyfill`: Firefox's own `browser`, else
 * Chrome's `chrome`, promise-based in MV3 for what the bridge uses (`storage.local.get`,
 * `runtime.connect`, `i18n.getMessage`; a runtime message is answered through `sendResponse`, which
 * both take). The bridge is loaded into every enabled page, and the polyfill with WXT's content-script
 * context was about 2.5 KB gzipped of it (docs/performance.md).
 */
export const extensionApi: typeof wxtBrowser = (globalThis as { browser?: typeof wxtBrowser }).browser ?? (globalThis as unknown as { chrome: typeof wxtBrowser }).chrome;
