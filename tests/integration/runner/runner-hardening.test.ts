import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runHeadless } from '../../../src/runner/run-headless';
import { createAgentRuntime } from '../../../src/runtime/create-agent-runtime';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';

/** What a terminal must not act on: clear screen, cursor home, a window title, a bell, a C1 CSI. */
const HOSTILE_REPLY = 'The duke yields.\u001b[2J\u001b[H\u001b]0;owned\u0007\u009b31m';

let server: ScriptedModelServer;
let folder: string;

beforeEach(async () => {
  server = await startScriptedModelServer({ models: ['page-model'] });
  server.script(() => ({ content: HOSTILE_REPLY }));
  folder = await mkdtemp(join(tmpdir(), 'retinue-runner-hardening-'));
});
afterEach(async () => {
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

async function run(extra: string[]) {
  let stdout = '';
  let stderr = '';
  const exitCode = await runHeadless({
    argv: ['run', '--base-url', server.baseURL, '--model', 'page-model', '--prompt', 'Write the duel.', ...extra],
    writeOut: (text) => void (stdout += text),
    writeError: (text) => void (stderr += text),
    createRuntime: createAgentRuntime,
    clientOptions: { maxRetries: 0 },
  });
  return { exitCode, stdout, stderr };
}

describe('the runner at a terminal', () => {
  test('a reply with escape sequences is printed without its control characters', async () => {
    const actual = await run([]);

    expect(actual.exitCode).toBe(0);
    expect(actual.stdout.split('\n\n')[0]).toBe('The duke yields.[2J[H]0;owned31m');
    const controls = [...`${actual.stdout}${actual.stderr}`].filter((character) => {
      const code = character.charCodeAt(0);
      return (code < 0x20 && character !== '\n' && character !== '\t') || (code >= 0x7f && code <= 0x9f);
    });
    expect(controls).toEqual([]);
  });

  test('--store is written readable by its owner only, through a temporary file that does not stay', async () => {
    const storeFile = join(folder, 'store.json');
    const actual = await run(['--store', storeFile]);

    expect(actual.exitCode).toBe(0);
    expect((await stat(storeFile)).mode & 0o777).toBe(0o600);
    expect(await readdir(folder)).toEqual(['store.json']);
  });

  test('--agents prints what each file does before the run: the writer said plainly, its model and budgets', async () => {
    const agents = join(folder, 'agents');
    await mkdir(agents);
    await writeFile(
      join(agents, 'fantasy-critic.md'),
      '---\nname: root\ndescription: Gentle feedback.\nmodel: page-model\nretinue:\n  name: Fantasy critic\n  budget:\n    maxRounds: 100\n    maxToolCalls: 500\n---\nWrite.\n',
    );
    await writeFile(join(agents, 'lore-keeper.md'), '---\nname: lore-keeper\ndescription: Keeps facts.\n---\nKeep the facts.\n');

    const actual = await run(['--agents', agents]);

    expect(actual.exitCode).toBe(0);
    expect(actual.stderr).toContain(`agent files in '${agents}':`);
    expect(actual.stderr).toContain(
      `- root ("Fantasy critic"): REPLACES THE WRITER (Writer), the profile that writes the page's replies; runs on the page's own model (page-model); budget 100 rounds, 500 tool calls.`,
    );
    expect(actual.stderr).toContain(`- lore-keeper ("lore-keeper"): a new agent; runs on the page's own model; budget 8 rounds, 16 tool calls.`);
  });
});
