import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';

/** Entry points whose bundles carry zod; the MAIN-world page hook carries none. */
const zodEntries = ['entrypoints/background.ts', 'entrypoints/bridge.ts', 'entrypoints/options/main.tsx', 'entrypoints/sidepanel/main.tsx'];

test('every entry point that bundles zod makes it jitless before anything else is imported', () => {
  for (const entry of zodEntries) {
    const source = readFileSync(new URL(`../../${entry}`, import.meta.url), 'utf8');
    const firstImport = source.split('\n').find((line) => line.startsWith('import '));
    expect(firstImport, entry).toMatch(/^import '(\.\.\/)+src\/zod-jitless';$/);
  }
});
