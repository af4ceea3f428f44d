import { afterEach } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';

/**
 * Setup of the unit files that share their modules (vitest `isolate: false`, vitest.config.ts): a
 * test that replaces a fake browser function (`fakeBrowser.i18n.getMessage = …` to speak Chinese)
 * must not leave it to the files after it. Each namespace's functions are taken once, when the first
 * file of a worker starts, and put back after every test; `fakeBrowser.reset()` clears the fake's
 * storage and listeners as before.
 */
type Namespace = Record<string, unknown>;

function functionsOf(): Map<Namespace, Map<string, unknown>> {
  const taken = new Map<Namespace, Map<string, unknown>>();
  for (const value of Object.values(fakeBrowser as unknown as Record<string, unknown>)) {
    if (typeof value !== 'object' || value === null) continue;
    const namespace = value as Namespace;
    taken.set(namespace, new Map(Object.entries(namespace).filter(([, member]) => typeof member === 'function')));
  }
  return taken;
}

const holder = globalThis as { retinueFakeBrowserFunctions?: Map<Namespace, Map<string, unknown>> };
const originals = (holder.retinueFakeBrowserFunctions ??= functionsOf());

afterEach(() => {
  for (const [namespace, functions] of originals) {
    for (const [name, original] of functions) if (namespace[name] !== original) namespace[name] = original;
  }
  fakeBrowser.reset();
});
