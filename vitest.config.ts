import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

/**
 * One `npm test` runs every project:
 * - unit: src logic with fake-indexeddb and WXT's fake browser (component tests opt into happy-dom
 *   with a `// @vitest-environment happy-dom` comment);
 * - integration: the runtime and the real openai SDK against the scripted model server on loopback;
 * - e2e: the built extension in Debian's Chromium and Firefox ESR.
 */
export default defineConfig({
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    projects: [
      {
        plugins: [WxtVitest()],
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
      {
        plugins: [WxtVitest()],
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          setupFiles: ['fake-indexeddb/auto'],
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          // Builds the extension for both browsers at the start of every run: a stale .output/ lies.
          globalSetup: ['tests/e2e/support/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
