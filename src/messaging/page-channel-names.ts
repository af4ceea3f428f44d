/**
 * The two `window` messages that set up the page hook's MessageChannel to the bridge. A file of its
 * own with no imports, because the MAIN-world page hook uses it and must not pull in zod.
 */

/** Posted by the page hook on `window` with the channel's port; the bridge answers `connected` on it. */
export const PAGE_HOOK_CONNECT = 'retinue-page-hook:connect';
/** Posted by the bridge when it starts, so a page hook that spoke first offers its port again. */
export const BRIDGE_READY = 'retinue-bridge:ready';
