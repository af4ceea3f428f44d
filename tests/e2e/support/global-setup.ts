import { buildExtension } from './build-extension';

/**
 * Vitest globalSetup of the e2e project: builds the extension for Chromium and Firefox once at the
 * start of every run (never reusing an older `.output/`). Workers inherit the "already built" marker,
 * so `buildExtension()` inside a test file returns at once.
 */
export default async function buildBeforeEndToEndTests(): Promise<void> {
  await buildExtension({ force: true });
}
