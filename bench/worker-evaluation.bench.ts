/**
 * What evaluating the built `background.js` costs outside the browser (not a test; `npm run bench --
 * worker-evaluation`). Builds the Chrome extension into a scratch folder, then evaluates its
 * `background.js` in fresh Node processes (a `vm` context with the extension APIs stubbed) and
 * prints the median CPU time of the evaluation, `main()` included, and the zod schema and check
 * instances constructed (zod's post-processor hook). CPU time moves less with a loaded machine than
 * the browser bench's wall clock, so it shows what a change to the start costs when that bench is noisy.
 *
 * `RETINUE_BENCH_COMPARE=<a built chrome-mv3 folder>` (another commit's build) evaluates that one too,
 * interleaved.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const PROCESSES = 15;
const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(path.join(tmpdir(), 'retinue-bench-evaluation-'));
const compareSource = process.env.RETINUE_BENCH_COMPARE;

/** Run in each fresh process: evaluates the file named by argv[1] and prints its CPU time and count. */
const evaluator = `
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
const source = readFileSync(process.argv[1], 'utf8');
const stub = (name) => new Proxy(function () {}, {
  get: (_target, key) => (key === 'then' ? undefined : key === 'id' ? 'bench' : stub(name + '.' + String(key))),
  apply: () => (name.endsWith('Listener') ? undefined : name.endsWith('getURL') ? 'chrome-extension://bench/' : Promise.resolve(undefined)),
});
let constructed = 0;
const quiet = { log() {}, info() {}, warn() {}, error() {}, debug() {} };
const sandbox = { chrome: stub('chrome'), browser: stub('browser'), console: quiet, setTimeout, clearTimeout, setInterval, clearInterval,
  queueMicrotask, URL, TextEncoder, TextDecoder, AbortController, AbortSignal, EventTarget, Event, structuredClone, crypto, fetch,
  Headers, Request, Response, ReadableStream, TransformStream, WritableStream, Blob, FormData, navigator: { userAgent: 'Chrome' },
  addEventListener() {}, __zod_globalConfig: { postProcessor: () => { constructed += 1; } } };
sandbox.self = sandbox;
sandbox.globalThis = sandbox;
const context = vm.createContext(sandbox);
const script = new vm.Script(source, { filename: 'background.js' });
const before = process.cpuUsage();
script.runInContext(context);
const spent = process.cpuUsage(before);
console.log(JSON.stringify({ cpuMs: (spent.user + spent.system) / 1000, constructed }));
process.exit(0);
`;

function evaluate(backgroundFile: string): { cpuMs: number; constructed: number } {
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', evaluator, backgroundFile], { encoding: 'utf8' });
  return JSON.parse(output.trim().split('\n').pop() ?? '{}') as { cpuMs: number; constructed: number };
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

try {
  execFileSync(path.join(repositoryRoot, 'node_modules/.bin/wxt'), ['build'], {
    cwd: repositoryRoot,
    env: { ...process.env, RETINUE_OUT_DIR: scratch },
    stdio: 'ignore',
  });
  const builds = [{ label: 'this build', file: path.join(scratch, 'chrome-mv3', 'background.js') }];
  if (compareSource) builds.push({ label: `compared build (${compareSource})`, file: path.join(compareSource, 'background.js') });
  const results = builds.map(() => ({ cpu: [] as number[], constructed: 0 }));
  for (let round = 0; round < PROCESSES; round += 1) {
    builds.forEach((build, index) => {
      const { cpuMs, constructed } = evaluate(build.file);
      results[index]!.cpu.push(cpuMs);
      results[index]!.constructed = constructed;
    });
  }
  builds.forEach((build, index) => {
    const { cpu, constructed } = results[index]!;
    console.log(`${build.label}: evaluation ${median(cpu).toFixed(1)} ms CPU (median of ${PROCESSES} processes, ${Math.min(...cpu).toFixed(1)}–${Math.max(...cpu).toFixed(1)}), ${constructed} zod instances`);
  });
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
