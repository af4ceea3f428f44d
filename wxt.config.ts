import preact from '@preact/preset-vite';
import { defineConfig } from 'wxt';
import { noLibraryInnerHtml } from './scripts/no-library-inner-html';
import { CHROME_MANIFEST_KEY, GECKO_ID } from './src/extension/identity';

/** Store builds (`npm run zip`) set RETINUE_STORE=1 and leave the fixed development key out. */
const isStoreBuild = process.env.RETINUE_STORE === '1';
/** RETINUE_OUT_DIR lets the build tests build into a scratch folder, leaving `.output/` to the e2e tests. */
const outDir = process.env.RETINUE_OUT_DIR || '.output';

export default defineConfig({
  outDir,
  modules: ['@wxt-dev/webextension-polyfill'],
  vite: () => ({ plugins: [preact(), noLibraryInnerHtml()] }),
  manifest: ({ browser }) => ({
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    default_locale: 'en',
    permissions: ['storage', 'unlimitedStorage', 'scripting', 'activeTab'],
    host_permissions: ['http://localhost/*', 'http://127.0.0.1/*'],
    optional_host_permissions: ['*://*/*'],
    action: { default_title: '__MSG_actionTitle__' },
    ...(browser === 'firefox'
      ? { browser_specific_settings: { gecko: { id: GECKO_ID, strict_min_version: '128.0' } } }
      : isStoreBuild
        ? {}
        : { key: CHROME_MANIFEST_KEY }),
  }),
});
