/**
 * What the browser benches share: the extension built into a scratch folder, the scripted model
 * server and the fixture pages' server (both in this process, apart from the browser), Debian's
 * Chromium with the build loaded and its options page open, and the median the benches print.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { startScriptedModelServer, type ScriptedModelServer } from '../tests/support/scripted-model-server';
import { chromiumExecutable, launchChromiumWithExtension, type ChromiumWithExtension } from '../tests/e2e/support/chromium';
import { startFixtureServer, type FixtureServer } from '../tests/e2e/support/fixture-server';

export interface BrowserBench {
  model: ScriptedModelServer;
  fixtures: FixtureServer;
  chromium: ChromiumWithExtension;
  /** The extension's options page, open in its own tab: where settings are written and the run store read. */
  options: Page;
  /** Closes the browser and the servers, and removes the scratch build. */
  close(): Promise<void>;
}

const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));

/**
 * Builds the Chrome extension into a scratch folder named after the bench and starts everything a
 * browser bench drives. No site is switched on yet.
 *
 * @example
 * const bench = await startBrowserBench('turn');
 * try {
 *   await switchOnPrimarySite(bench.options, bench.fixtures, bench.model);
 * } finally {
 *   await bench.close();
 * }
 */
export async function startBrowserBench(name: string): Promise<BrowserBench> {
  const scratch = mkdtempSync(path.join(tmpdir(), `retinue-bench-${name}-`));
  let model: ScriptedModelServer | undefined;
  let fixtures: FixtureServer | undefined;
  let chromium: ChromiumWithExtension | undefined;
  const close = async () => {
    await chromium?.close();
    await fixtures?.close();
    await model?.close();
    rmSync(scratch, { recursive: true, force: true });
  };
  try {
    execFileSync(path.join(repositoryRoot, 'node_modules/.bin/wxt'), ['build'], { cwd: repositoryRoot, env: { ...process.env, RETINUE_OUT_DIR: scratch }, stdio: 'ignore' });
    model = await startScriptedModelServer();
    fixtures = await startFixtureServer({ modelBaseUrl: model.baseURL });
    chromium = await launchChromiumWithExtension({ extensionDirectory: path.join(scratch, 'chrome-mv3') });
    const options = await chromium.openExtensionPage('options.html');
    return { model, fixtures, chromium, options, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The middle value (the upper of the two middle ones for an even count). */
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** The version line Chromium prints, e.g. `Chromium 156.0.8078.114 built on Debian GNU/Linux 12 (bookworm)`. */
export function chromiumVersion(): string {
  const printed = execFileSync(chromiumExecutable, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return printed.trim().split('\n').at(-1) ?? 'Chromium (no version printed)';
}
