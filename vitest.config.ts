import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { WxtVitest } from 'wxt/testing/vitest-plugin';

/**
 * Files run at once across all three projects. Vitest's own default is one fewer than the cores,
 * which on a 2-core machine is a single worker: every file, unit or end-to-end, one after another.
 * Three at the least: the end-to-end files spend most of their time waiting on browsers, timers and
 * loopback servers (two files at once kept 2 cores 1.35 busy), so a third file fills that wait. On
 * 2 cores the whole run went from 666 s with two to 571 s with three (docs/performance.md). Four at
 * the most, so a big machine does not start a browser per core.
 */
const filesAtOnce = Math.min(4, Math.max(3, availableParallelism()));

/**
 * WXT's plugin points `wxt/browser` at its mock, which imports the fake browser from `wxt/testing`:
 * that index also holds the Vitest plugin, so every file that reached `wxt/browser` loaded all of
 * WXT's build tooling (Vite's builder, magicast, unimport, c12, linkedom), about 1.5 s a file on 2
 * cores. The mock needs only the fake browser.
 */
const fakeBrowserOnly = { find: /^wxt\/testing$/, replacement: 'wxt/testing/fake-browser' };

/**
 * One `npm test` runs every project:
 * - unit: src logic with fake-indexeddb and WXT's fake browser;
 * - unit-ui: the side panel's and options page's components (they opt into happy-dom with a
 *   `// @vitest-environment happy-dom` comment);
 * - integration: the runtime and the real openai SDK against the scripted model server on loopback;
 * - e2e: the built extension in Debian's Chromium and Firefox ESR. Each file has its own browser
 *   profile and servers on ports of their own, so two files run side by side.
 *
 * Unit and integration files run in worker threads, not child processes: on 2 cores the projects
 * took 167 s instead of 177 s (322 s of CPU instead of 342 s), CPU the end-to-end files running
 * beside them get back. The unit and integration files of a thread also share their modules
 * (`isolate: false`): loading the runtime, zod and the openai SDK again for every file was most of
 * their CPU (unit 78 → about 20 s, integration 171 → 90 s). Whatever a test replaces in WXT's fake
 * browser is put back after it (tests/support/shared-module-hygiene.ts); both projects passed eight
 * and four runs in shuffled order. The component files keep a fresh module graph each.
 *
 * All projects share one pool: vitest runs the projects' files in one group (e2e first, by its name, so
 * the long files start first and the short unit files fill in at the end).
 */
export default defineConfig({
  test: {
    reporters: ['default', './tests/support/summary-reporter.ts'],
    maxWorkers: filesAtOnce,
    projects: [
      {
        plugins: [WxtVitest()],
        test: {
          name: 'unit',
          pool: 'threads',
          alias: [fakeBrowserOnly],
          include: ['tests/unit/**/*.test.{ts,tsx}'],
          exclude: ['tests/unit/ui/**'],
          // Shared modules (above): 43 s → 12 s on 2 cores for these files. A store test opens a
          // database of its own name, so the files' databases never meet.
          isolate: false,
          setupFiles: ['fake-indexeddb/auto', './tests/support/shared-module-hygiene.ts'],
        },
      },
      {
        plugins: [WxtVitest()],
        test: {
          // The panel's and options page's components, each file in a fresh module graph: Preact's
          // hooks, Testing Library's screen and happy-dom keep state that a later file must not see.
          name: 'unit-ui',
          pool: 'threads',
          alias: [fakeBrowserOnly],
          include: ['tests/unit/ui/**/*.test.{ts,tsx}'],
          setupFiles: ['fake-indexeddb/auto'],
        },
      },
      {
        plugins: [WxtVitest()],
        test: {
          name: 'integration',
          pool: 'threads',
          alias: [fakeBrowserOnly],
          include: ['tests/integration/**/*.test.ts'],
          // Shared modules here too: 98 s → 62 s on 2 cores, 171 s → 90 s of CPU.
          isolate: false,
          setupFiles: ['fake-indexeddb/auto', './tests/support/shared-module-hygiene.ts'],
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
        },
      },
    ],
  },
});
