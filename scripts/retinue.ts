/**
 * `[OPENAI_API_KEY=KEY] npm run retinue -- run --base-url URL [--api-key KEY] --model MODEL [--settings FILE] (--prompt TEXT | --snapshot FILE) [--json]`
 * Wiring only: the logic lives in src/runner/.
 */
import { runHeadless } from '../src/runner/run-headless';
import { createAgentRuntime } from '../src/runtime/create-agent-runtime';

const controller = new AbortController();
process.once('SIGINT', () => controller.abort('Interrupted (Ctrl-C).'));

const exitCode = await runHeadless({
  argv: process.argv.slice(2),
  environmentVariables: process.env,
  writeOut: (text) => process.stdout.write(text),
  writeError: (text) => process.stderr.write(text),
  createRuntime: createAgentRuntime,
  signal: controller.signal,
});
process.exitCode = exitCode;
