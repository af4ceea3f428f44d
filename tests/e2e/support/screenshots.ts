import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { repositoryRoot } from './build-extension';

/** Where e2e screenshots go (gitignored). */
export const screenshotDirectory = path.join(repositoryRoot, 'test-output', 'screenshots');

/** A Playwright or Puppeteer page: both take `{ path, fullPage }`. */
export interface ScreenshotCapable {
  screenshot(options: { path: `${string}.png`; fullPage?: boolean }): Promise<unknown>;
}

/**
 * Saves a full-page PNG of `page` as `<directory>/<name>.png` (default directory
 * `test-output/screenshots/`) and returns its path. Names are made file-safe.
 *
 * @example
 * await saveScreenshot(sidePanel, 'side-panel-after-run');
 * // test-output/screenshots/side-panel-after-run.png
 */
export async function saveScreenshot(page: ScreenshotCapable, name: string, directory = screenshotDirectory): Promise<string> {
  await mkdir(directory, { recursive: true });
  const fileName = `${name.replace(/[^a-zA-Z0-9._-]+/g, '-')}.png` as const;
  const target = path.join(directory, fileName) as `${string}.png`;
  await page.screenshot({ path: target, fullPage: true });
  return target;
}
