import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repositoryRoot = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunnerResult {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

export interface StartedRunner {
  process: ChildProcess;
  /** Settles when the process has exited. */
  result: Promise<RunnerResult>;
}

/** Starts `scripts/retinue.ts` in a child process, as `npm run retinue -- ...` does (`node --import tsx`). */
export function startRetinue(argv: readonly string[]): StartedRunner {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/retinue.ts', ...argv], { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  const result = new Promise<RunnerResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
  });
  return { process: child, result };
}

/** Runs `scripts/retinue.ts` to the end. */
export function runRetinue(argv: readonly string[]): Promise<RunnerResult> {
  return startRetinue(argv).result;
}
