import { defineContentScript } from 'wxt/utils/define-content-script';
import { installPageHook } from '../src/page-hook/install-page-hook';

/**
 * MAIN-world page hook. Registered at run time only for enabled origins
 * (scripting.registerContentScripts, world MAIN, document_start): a page that is off carries none of it.
 * Imports nothing from wxt/browser or the polyfill, and no zod.
 */
export default defineContentScript({
  matches: ['http://127.0.0.1/*'],
  world: 'MAIN',
  runAt: 'document_start',
  registration: 'runtime',
  main() {
    installPageHook(window);
  },
});
