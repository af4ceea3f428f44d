import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const runFile = promisify(execFile);

/** The repository root (this file lives in tests/e2e/support/). */
export const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** The browsers Retinue is built for; Firefox is always built as MV3. */
export type TargetBrowser = 'chrome' | 'firefox';

/**
 * Where `wxt build` puts the unpacked extension for a browser.
 *
 * @example
 * extensionOutputDirectory('firefox'); // '/repo/.output/firefox-mv3'
 */
export function extensionOutputDirectory(browser: TargetBrowser): string {
  return path.join(repositoryRoot, '.output', `${browser}-mv3`);
}

const buildArguments: Record<TargetBrowser, string[]> = {
  chrome: ['build'],
  firefox: ['build', '-b', 'firefox', '--mv3'],
};

/** Set in this process (and inherited by vitest workers) once this run has built the extension. */
const builtMarker = 'RETINUE_E2E_BUILT';

/**
 * Builds the extension for the given browsers with WXT. Sources change between runs and a stale
 * `.output/` gives false results, so a build always happens unless this process (or the vitest run
 * that spawned it) already built in this run.
 *
 * @example
 * const { chrome, firefox } = await buildExtension();
 * // chrome === '/repo/.output/chrome-mv3'
 */
export async function buildExtension(
  options: { browsers?: TargetBrowser[]; force?: boolean } = {},
): Promise<Record<TargetBrowser, string>> {
  const browsers = options.browsers ?? ['chrome', 'firefox'];
  const alreadyBuilt = new Set((process.env[builtMarker] ?? '').split(',').filter(Boolean));
  for (const browser of browsers) {
    if (!options.force && alreadyBuilt.has(browser) && existsSync(extensionOutputDirectory(browser))) continue;
    try {
      await runFile(path.join(repositoryRoot, 'node_modules/.bin/wxt'), buildArguments[browser], {
        cwd: repositoryRoot,
        maxBuffer: 16 * 1024 * 1024,
      });
    } catch (error) {
      const output = error as { stdout?: string; stderr?: string };
      throw new Error(
        `wxt ${buildArguments[browser].join(' ')} failed; fix the build (run it by hand to see more):\n` +
          `${output.stderr ?? ''}${output.stdout ?? ''}`,
        { cause: error },
      );
    }
    alreadyBuilt.add(browser);
  }
  process.env[builtMarker] = [...alreadyBuilt].join(',');
  return { chrome: extensionOutputDirectory('chrome'), firefox: extensionOutputDirectory('firefox') };
}
