import preact from '@preact/preset-vite';
import { defineConfig, type WxtUnimportOptions } from 'wxt';
import { noLibraryInnerHtml } from './scripts/no-library-inner-html';
import { zodWithoutCodeGeneration } from './scripts/zod-without-code-generation';
import { CHROME_MANIFEST_KEY, GECKO_ID } from './src/extension/identity';

/** Store builds (`npm run zip`) set RETINUE_STORE=1 and leave the fixed development key out. */
const isStoreBuild = process.env.RETINUE_STORE === '1';
/** RETINUE_OUT_DIR lets the build tests build into a scratch folder, leaving `.output/` to the e2e tests. */
const outDir = process.env.RETINUE_OUT_DIR || '.output';

/**
 * The side panel's and options page's CSP, said explicitly (docs/trust.md): only the extension's own
 * scripts, no plugins, no remote images (a model's Markdown may name one), no <base> rewriting; fetches
 * may go to any http(s) address because the options page lists a connection's models at its base URL.
 */
export const EXTENSION_PAGES_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "img-src 'self' data:",
  "connect-src 'self' http: https:",
].join('; ');

/**
 * No auto-imports: a free `storage` (even a parameter of that name) made WXT import its storage
 * module, whose top-level setup then ran in every worker start and every enabled page
 * (docs/performance.md). WXT 0.20's `imports: false` drops only the global types and still injects.
 * `autoImport` (unimport's plugin option) stops the injection and `disabled` (read by WXT) the global
 * types, so a missing import fails the typecheck; neither is in WXT's option type.
 */
const NO_AUTO_IMPORTS = { autoImport: false, disabled: true } as unknown as WxtUnimportOptions;

export default defineConfig({
  outDir,
  imports: NO_AUTO_IMPORTS,
  modules: ['@wxt-dev/webextension-polyfill'],
  // The sources zip for addons.mozilla.org: what builds the extension, without tests, their fixtures and output.
  zip: { excludeSources: ['tests/**', 'test-output/**', 'bench/**', '.ci/**'] },
  vite: () => ({ plugins: [preact(), zodWithoutCodeGeneration(), noLibraryInnerHtml()] }),
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    // No unlimitedStorage: the per-site quota and the prune keep the run store far under the browser's own (docs/trust.md).
    permissions: ['storage', 'scripting', 'activeTab'],
    host_permissions: ['http://localhost/*', 'http://127.0.0.1/*'],
    optional_host_permissions: ['*://*/*'],
    action: { default_title: '__MSG_actionTitle__' },
    content_security_policy: { extension_pages: EXTENSION_PAGES_CSP },
    ...(browser === 'firefox'
      ? {
          browser_specific_settings: {
            gecko: {
              id: GECKO_ID,
              // 140 (the ESR Debian 12 ships) is the first to read data_collection_permissions.
              strict_min_version: '140.0',
              // addons.mozilla.org asks every new add-on: Retinue sends nothing to its makers or anyone else.
              data_collection_permissions: { required: ['none'] },
            },
            // Firefox for Android reads data_collection_permissions from 142 on.
            gecko_android: { strict_min_version: '142.0' },
          },
        }
      : isStoreBuild
        ? {}
        : { key: CHROME_MANIFEST_KEY }),
  }),
});
