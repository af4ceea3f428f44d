import { expect, test } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { installFakeScriptingAndPermissions } from '../../support/fake-extension-apis';

/**
 * A waking service worker evaluates the whole background bundle before its first listener runs, and
 * building zod schemas was half of that (docs/performance.md). Schemas the waking event does not
 * need are built on first use (`src/lazy-schema.ts`, `src/built-on-first-use.ts`); this counts, with zod's post-processor hook,
 * the schema and check instances the background's modules and its start-up construct.
 */

/**
 * 146 on 2026-12-07, once the zod/mini schemas the bridge shares (page, run-port and connection-profile
 * messages, the chat identity) were built on first use too; 426 before.
 */
const MAX_AT_IMPORT = 200;
/** `main()` itself, synchronously: the listeners only. */
const MAX_IN_MAIN = 10;

type ZodGlobalConfig = { postProcessor?: (instance: unknown) => void };

test('the background builds only the schemas its start needs', async () => {
  let constructed = 0;
  const holder = globalThis as { __zod_globalConfig?: ZodGlobalConfig };
  // zod reads this object when it loads and calls the hook for every instance it constructs.
  holder.__zod_globalConfig ??= {};
  holder.__zod_globalConfig.postProcessor = () => {
    constructed += 1;
  };
  try {
    const { default: background } = await import('../../../entrypoints/background');
    const atImport = constructed;
    installFakeScriptingAndPermissions();
    // WXT's fake browser has no Port events; main() only adds listeners to them.
    Object.assign(fakeBrowser.runtime, { onConnect: { addListener: () => undefined, removeListener: () => undefined } });
    background.main();
    const inMain = constructed - atImport;

    const advice =
      'a schema the worker start does not need should be built on first use: wrap it in lazySchema(() => ...) (src/lazy-schema.ts), or a zod/mini one in builtOnFirstUse(() => ...) (src/built-on-first-use.ts)';
    expect(atImport, `zod instances built when the background's modules load; ${advice}`).toBeLessThanOrEqual(MAX_AT_IMPORT);
    expect(inMain, `zod instances built by the background's main(); ${advice}`).toBeLessThanOrEqual(MAX_IN_MAIN);
    // The hook counts: with it off, the same count would pass for any build.
    expect(atImport).toBeGreaterThan(0);
  } finally {
    holder.__zod_globalConfig.postProcessor = undefined;
  }
}, 60_000);
