import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedRequest } from '../../support/scripted-model-server';
import { runRetinue, startRetinue } from './runner-process';
import { SCENE_CRITIC_MARKER } from './scripted-delegation';

// Each call starts `node --import tsx scripts/retinue.ts` in a child process, which compiles the runtime first.
const PROCESS_TIMEOUT = 120_000;
const LATE_FINDING = 'The duke was wounded in chapter one.';

let server: ScriptedModelServer;
let folder: string;
beforeEach(async () => {
  server = await startScriptedModelServer();
  folder = await mkdtemp(join(tmpdir(), 'retinue-runner-store-'));
});
afterEach(async () => {
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

const isCritic = (request: ScriptedRequest): boolean => request.toolNames.includes('task_return') && request.systemText.includes(SCENE_CRITIC_MARKER);
const isRoot = (request: ScriptedRequest): boolean => !request.toolNames.includes('task_return');
const runnerCall = (storeFile: string, prompt: string, extra: string[] = []) => [
  'run', '--base-url', server.baseURL, '--model', 'page-model', '--conversation', 'duel', '--store', storeFile, '--prompt', prompt, ...extra,
];

test(
  'two runner calls chained by --conversation and --store: the second gets the result that came after the first’s reply',
  async () => {
    const storeFile = join(folder, 'store.json');
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    server.script(async (request) => (isCritic(request) ? (await released, { toolCalls: [{ name: 'task_return', arguments: { summary: LATE_FINDING } }] }) : undefined));
    server.script((request) => {
      if (!isRoot(request)) return undefined;
      if (request.systemText.includes(LATE_FINDING)) return { content: 'She remembers the wound.' };
      if (request.lastMessageText.includes('She looks at his arm.')) return { content: 'She sees nothing.' };
      if (request.toolResultCount === 0 && request.toolNames.includes('agent_delegate')) {
        return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique the duel', objective: 'Find what the duel forgets.' } } }] };
      }
      if (request.toolResultCount === 1 && request.toolNames.includes('agent_await')) return { toolCalls: [{ name: 'agent_await', arguments: {} }] };
      return { content: 'The duke yields.' };
    });

    // First call: the critic answers only once the runner has said the reply went out.
    const first = startRetinue(runnerCall(storeFile, 'The duel begins.', ['--reply-deadline-ms', '1500']));
    let stderr = '';
    first.process.stderr?.on('data', (text: string) => {
      stderr += text;
      if (stderr.includes('replied; 1 helper still working')) release();
    });
    const firstResult = await first.result;
    expect(firstResult.exitCode).toBe(0);
    expect(firstResult.stdout.split('\n\n')[0]).toBe('The duke yields.');
    expect(firstResult.stdout).toMatch(/scene-critic\s+completed/);
    const dump = JSON.parse(await readFile(storeFile, 'utf8')) as { stores: { runs: Array<{ chat?: { conversationId: string } }> } };
    expect(dump.stores.runs.map((run) => run.chat?.conversationId)).toEqual(['duel']);

    const before = server.requests.length;
    const second = await runRetinue(runnerCall(storeFile, 'She looks at his arm.'));
    expect(second.exitCode).toBe(0);
    expect(second.stdout.split('\n\n')[0]).toBe('She remembers the wound.');
    const secondRoot = server.requests.slice(before).filter(isRoot);
    expect(secondRoot[0]?.systemText).toContain('## Since your last reply');
    expect(secondRoot[0]?.systemText).toContain(LATE_FINDING);
    expect(server.requests.slice(before).filter(isCritic)).toHaveLength(0);
    expect(server.unmatched).toEqual([]);
  },
  PROCESS_TIMEOUT * 2,
);

test(
  'a --store file that is not a runner store stops the runner before any model call, saying what to do',
  async () => {
    const storeFile = join(folder, 'notes.json');
    await writeFile(storeFile, JSON.stringify({ notes: ['not a store'] }), 'utf8');

    const actual = await runRetinue(runnerCall(storeFile, 'Hello.'));

    expect(actual.exitCode).toBe(2);
    expect(actual.stderr).toContain(`The store file '${storeFile}' is not a runner store`);
    expect(actual.stderr).toContain('name a new file with --store');
    expect(server.requests).toHaveLength(0);
    expect(JSON.parse(await readFile(storeFile, 'utf8'))).toEqual({ notes: ['not a store'] });
  },
  PROCESS_TIMEOUT,
);
