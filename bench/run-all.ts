/**
 * `npm run bench`: runs every `bench/*.bench.ts` in turn, each in its own process so one cannot warm
 * up or slow down the next. Benchmarks print ratios against baselines measured in the same run; they
 * are not tests and never fail on a number.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const benchFolder = fileURLToPath(new URL('.', import.meta.url));
const tsxCli = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(benchFolder)
  .filter((name) => name.endsWith('.bench.ts'))
  .filter((name) => only.length === 0 || only.some((wanted) => name.includes(wanted)))
  .sort();

let failures = 0;
for (const file of files) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, [tsxCli, fileURLToPath(new URL(file, import.meta.url))], { stdio: 'inherit' });
  if (result.status !== 0) {
    failures += 1;
    console.log(`${file} did not finish (exit status ${result.status ?? result.signal}).`);
  }
}
console.log(`\n${files.length} benchmark file(s) run${failures > 0 ? `, ${failures} did not finish` : ''}.`);
process.exitCode = failures > 0 ? 1 : 0;
