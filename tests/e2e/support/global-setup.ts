import { browserVersions } from './browser-versions';
import { buildExtension } from './build-extension';
import { firefoxExecutable } from './firefox';
import { prepareFirefoxProfileTemplate } from './firefox-profile-template';

/**
 * Vitest globalSetup of the e2e project: names the browsers it tests with (failing at once, with the
 * install command, when one is missing), then builds the extension for Chromium and Firefox once at
 * the start of every run (never reusing an older `.output/`). Workers inherit the "already built"
 * marker, so `buildExtension()` inside a test file returns at once. While WXT builds, Firefox makes the
 * profile every Firefox test file starts from; the returned teardown removes it.
 */
export default async function buildBeforeEndToEndTests(): Promise<() => Promise<void>> {
  const versions = await browserVersions();
  console.log(`End-to-end tests run in: ${versions.join('; ')}`);
  const [removeTemplate] = await Promise.all([prepareFirefoxProfileTemplate(firefoxExecutable), buildExtension({ force: true })]);
  return removeTemplate;
}
