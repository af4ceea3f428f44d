import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { chromiumExecutable } from './chromium';
import { firefoxExecutable } from './firefox';

const run = promisify(execFile);

interface BrowserUnderTest {
  name: string;
  executable: string;
  debianPackage: string;
  environmentVariable: string;
}

const BROWSERS: BrowserUnderTest[] = [
  { name: 'Chromium', executable: chromiumExecutable, debianPackage: 'chromium', environmentVariable: 'RETINUE_CHROMIUM' },
  { name: 'Firefox ESR', executable: firefoxExecutable, debianPackage: 'firefox-esr', environmentVariable: 'RETINUE_FIREFOX' },
];

/**
 * The version line of each browser the end-to-end suite drives (e.g. `Chromium 150.0.7871.100 built
 * on Debian GNU/Linux 12`). Rejects, naming the browser and how to install it, when one is missing or
 * does not start, so a fresh machine says what it lacks before any test runs.
 */
export async function browserVersions(): Promise<string[]> {
  return Promise.all(
    BROWSERS.map(async (browser) => {
      if (!existsSync(browser.executable)) {
        throw new Error(
          `The end-to-end tests need ${browser.name}, and there is none at ${browser.executable}: ` +
            `apt-get install -y ${browser.debianPackage} (or set ${browser.environmentVariable} to its binary).`,
        );
      }
      try {
        const { stdout } = await run(browser.executable, ['--version'], { timeout: 30_000 });
        return stdout.trim().split('\n').at(-1) ?? `${browser.name} (no version printed)`;
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`${browser.name} at ${browser.executable} did not start to print its version: ${reason}`, { cause: error });
      }
    }),
  );
}
