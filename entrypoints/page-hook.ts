import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { installPageHook } from '../src/page-hook/install-page-hook';

/**
 * MAIN-world page hook. Registered at run time only for enabled origins
 * (scripting.registerContentScripts, world MAIN, document_start): a page that is off carries none of it.
 * Imports nothing from wxt/browser or the polyfill, and no zod. An unlisted script, not a content
 * script: WXT's content-script wrapper would add its logger to every enabled page.
 */
export default defineUnlistedScript(() => installPageHook(window));
