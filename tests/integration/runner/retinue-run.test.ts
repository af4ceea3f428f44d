import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';
import { runRetinue, startRetinue } from './runner-process';
import { SCENE_CRITIC_MARKER, scriptDelegatedRun } from './scripted-delegation';

// Each test starts `node --import tsx scripts/retinue.ts` in a child process, which compiles the runtime first.
const PROCESS_TIMEOUT = 90_000;

let server: ScriptedModelServer;
let folder: string;

beforeEach(async () => {
  server = await startScriptedModelServer();
  folder = await mkdtemp(join(tmpdir(), 'retinue-runner-'));
});

afterEach(async () => {
  await server.close();
  await rm(folder, { recursive: true, force: true });
});

async function writeJson(name: string, value: unknown): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, JSON.stringify(value), 'utf8');
  return path;
}

describe('npm run retinue -- run', () => {
  test(
    'completes a delegated run: the reply, then the table of tasks; progress on stderr',
    async () => {
      scriptDelegatedRun(server, 'The lighthouse keeper lifts the lamp.');

      const actual = await runRetinue(['run', '--base-url', server.baseURL, '--model', 'page-model', '--prompt', 'Write the storm scene.']);

      expect(actual.exitCode).toBe(0);
      const [reply, table] = actual.stdout.split('\n\n');
      expect(reply).toBe('The lighthouse keeper lifts the lamp.');
      const rows = (table ?? '').trim().split('\n');
      expect(rows[0]).toMatch(/^agent\s+status\s+rounds\s+tool calls\s+tokens\s+seconds$/);
      expect(rows[2]).toMatch(/^root\s+completed\s+3\s+2\s+\d+\s+\d+\.\d$/);
      expect(rows[3]).toMatch(/^scene-critic\s+completed\s+1\s+0\s+[1-9]\d*\s+\d+\.\d$/);
      expect(actual.stderr).toContain('scene-critic · Critique the storm scene — started');
      expect(actual.stderr).toContain('run completed');
      expect(server.requests.every((request) => request.body.model === 'page-model')).toBe(true);
      expect(server.unmatched).toEqual([]);
    },
    PROCESS_TIMEOUT,
  );

  test(
    'a model that writes its tool calls as text still gets a delegated run',
    async () => {
      server.modes.textCalls = 'hermes';
      scriptDelegatedRun(server, 'The keeper lifts the lamp.');

      const actual = await runRetinue(['run', '--base-url', server.baseURL, '--model', 'page-model', '--prompt', 'Write the storm scene.']);

      expect(actual.exitCode).toBe(0);
      expect(actual.stdout.split('\n\n')[0]).toBe('The keeper lifts the lamp.');
      expect(actual.stdout).toMatch(/scene-critic\s+completed/);
    },
    PROCESS_TIMEOUT,
  );

  test(
    'an endpoint that refuses tools: the runner switches to the prompted protocol and still delegates',
    async () => {
      server.modes.refuseTools = true;
      server.modes.textCalls = 'hermes';
      server.queue(SCENE_CRITIC_MARKER, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Raise the stakes.', confidence: 'high' } }] });
      server.script((request) => {
        if (request.systemText.includes(SCENE_CRITIC_MARKER) || !request.systemText.includes('agent_delegate(')) return undefined;
        const results = request.allText.split('<tool_response name=').length - 1;
        if (results === 0) return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique the storm', objective: 'Find the weakest beat.' } } }] };
        if (results === 1) return { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['scene-critic'] } }] };
        return { content: 'The keeper raises the stakes.' };
      });

      const actual = await runRetinue(['run', '--base-url', server.baseURL, '--model', 'page-model', '--prompt', 'Write the storm scene.']);

      expect(actual.exitCode).toBe(0);
      expect(actual.stdout.split('\n\n')[0]).toBe('The keeper raises the stakes.');
      expect(actual.stdout).toMatch(/scene-critic\s+completed/);
      expect(server.requests.filter((request) => request.outcome === 'status')).toHaveLength(1);
    },
    PROCESS_TIMEOUT,
  );

  test(
    '--json prints one document with the run, invocations, tasks, capsules and journal',
    async () => {
      scriptDelegatedRun(server, 'A reply.');

      const actual = await runRetinue(['run', '--base-url', server.baseURL, '--model', 'page-model', '--prompt', 'Go.', '--json']);

      expect(actual.exitCode).toBe(0);
      const document = JSON.parse(actual.stdout) as {
        run: { status: string; reply: string; adapter: string };
        reply: string;
        invocations: { kind: string }[];
        tasks: { workspaceKey: string; status: string }[];
        capsules: { path: string; capsule: { summary: string; status: string } }[];
        journal: { type: string; seq: number }[];
      };
      expect(document.run).toMatchObject({ status: 'completed', reply: 'A reply.', adapter: 'runner' });
      expect(document.reply).toBe('A reply.');
      expect(document.invocations.map((invocation) => invocation.kind).sort()).toEqual(['root', 'subagent']);
      expect(document.tasks).toMatchObject([{ workspaceKey: 'scene-critic', status: 'completed' }]);
      expect(document.capsules).toHaveLength(1);
      expect(document.capsules[0]?.path).toMatch(/^agent-results\/.+\.json$/);
      expect(document.capsules[0]?.capsule).toMatchObject({ status: 'completed', summary: 'Raise the stakes: the storm should threaten the ship.' });
      const types = document.journal.map((event) => event.type);
      expect(types[0]).toBe('run-start');
      expect(types.at(-1)).toBe('run-end');
      expect(types).toEqual(expect.arrayContaining(['task-queued', 'task-start', 'task-end', 'model-call-start', 'tool-call-end']));
      expect(document.journal.map((event) => event.seq)).toEqual(document.journal.map((_, index) => index + 1));
    },
    PROCESS_TIMEOUT,
  );

  test(
    '--settings binds an agent to a connection, and --snapshot supplies the conversation',
    async () => {
      scriptDelegatedRun(server);
      const settingsFile = await writeJson('settings.json', {
        version: 1,
        connections: [{ id: 'critics', baseURL: server.baseURL, apiKey: 'critic-key', defaultModel: 'critic-model', maxConcurrency: 1 }],
        profiles: [
          {
            id: 'scene-critic',
            name: 'Scene critic',
            description: 'Critiques scenes.',
            systemPrompt: `${SCENE_CRITIC_MARKER} who works for the tests.`,
            model: { binding: 'connection', connectionId: 'critics' },
            tools: { allow: ['chat.read'] },
          },
        ],
      });
      const snapshotFile = await writeJson('snapshot.json', {
        model: 'whatever-the-page-said',
        temperature: 0.7,
        messages: [
          { role: 'system', content: 'You narrate a story about a lighthouse.' },
          { role: 'user', content: 'Write the storm scene.' },
        ],
      });

      const actual = await runRetinue(['run', '--base-url', server.baseURL, '--api-key', 'page-key', '--model', 'page-model', '--settings', settingsFile, '--snapshot', snapshotFile]);

      expect(actual.exitCode).toBe(0);
      const childRequests = server.requests.filter((request) => request.systemText.includes(SCENE_CRITIC_MARKER));
      const rootRequests = server.requests.filter((request) => request.toolNames.includes('agent_delegate'));
      expect(childRequests.map((request) => [request.body.model, request.headers.authorization])).toEqual([['critic-model', 'Bearer critic-key']]);
      expect(rootRequests.length).toBe(3);
      for (const request of rootRequests) {
        expect([request.body.model, request.headers.authorization]).toEqual(['page-model', 'Bearer page-key']);
        expect(request.systemText).toContain('You narrate a story about a lighthouse.');
      }
    },
    PROCESS_TIMEOUT,
  );

  test(
    '--agents adds Markdown agent files: an agent file overrides a built-in and runs on its own model of the host',
    async () => {
      scriptDelegatedRun(server);
      const agents = join(folder, 'agents');
      await mkdir(agents);
      await writeFile(
        join(agents, 'scene-critic.md'),
        `---\nname: scene-critic\ndescription: Critiques scenes.\ntools: chat_read, Read\nmodel: critic-small\n---\n${SCENE_CRITIC_MARKER} from a Markdown file.\n`,
      );

      const actual = await runRetinue(['run', '--base-url', server.baseURL, '--model', 'page-model', '--agents', agents, '--prompt', 'Write the storm scene.']);

      expect(actual.exitCode).toBe(0);
      const childRequests = server.requests.filter((request) => request.systemText.includes(`${SCENE_CRITIC_MARKER} from a Markdown file.`));
      expect(childRequests.map((request) => [request.body.model, request.toolNames.filter((name) => name !== 'task_return')])).toEqual([['critic-small', ['chat_read']]]);
      expect(actual.stderr).toContain('scene-critic.md: Retinue has no tool Read; ignored.');

      await writeFile(join(agents, 'broken.md'), '---\nname: broken\ndescription: [oops\n---\nBody');
      const refused = await runRetinue(['run', '--base-url', server.baseURL, '--model', 'page-model', '--agents', agents, '--prompt', 'Go.']);

      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toMatch(/broken\.md, line \d+: the front matter is not valid YAML/);
    },
    PROCESS_TIMEOUT,
  );

  test(
    'a child whose connection fails for ever shows as failed, and the run still completes with the reply',
    async () => {
      const brokenConnection = await startScriptedModelServer();
      brokenConnection.script(() => ({ fault: 'status', status: 500, message: 'The critic backend is down.' }));
      scriptDelegatedRun(server, 'A reply without the critique.');
      const settingsFile = await writeJson('settings.json', {
        version: 1,
        connections: [{ id: 'broken', baseURL: brokenConnection.baseURL, defaultModel: 'critic-model' }],
        profiles: [
          {
            id: 'scene-critic',
            name: 'Scene critic',
            description: 'Critiques scenes.',
            systemPrompt: `${SCENE_CRITIC_MARKER}.`,
            model: { binding: 'connection', connectionId: 'broken' },
          },
        ],
      });

      const actual = await runRetinue(['run', '--base-url', server.baseURL, '--model', 'page-model', '--settings', settingsFile, '--prompt', 'Go.']).finally(() =>
        brokenConnection.close(),
      );

      expect(actual.exitCode).toBe(0);
      expect(actual.stdout.startsWith('A reply without the critique.\n\n')).toBe(true);
      expect(actual.stdout).toMatch(/\nscene-critic\s+failed\s/);
      expect(actual.stderr).toContain('model call failed (500: The critic backend is down.); retry 1');
      expect(brokenConnection.requests).toHaveLength(4);
    },
    PROCESS_TIMEOUT,
  );

  test(
    'a run whose model refuses the key exits 1 with the reason on stderr',
    async () => {
      server.script(() => ({ fault: 'status', status: 401, message: 'Invalid API key.' }));

      const actual = await runRetinue(['run', '--base-url', server.baseURL, '--api-key', 'wrong-key', '--model', 'page-model', '--prompt', 'Hi.']);

      expect(actual.exitCode).toBe(1);
      expect(actual.stderr).toMatch(/retinue: the run failed: .*401 Unauthorized.*check the --api-key \(or OPENAI_API_KEY\) given to the runner/);
      expect(actual.stderr).not.toContain('wrong-key');
      expect(actual.stdout).toMatch(/^agent\s+status/);
      expect(server.requests).toHaveLength(1);
    },
    PROCESS_TIMEOUT,
  );

  test(
    'Ctrl-C cancels the run: the model call is dropped and the runner exits 1',
    async () => {
      server.script(() => ({ fault: 'hang' }));
      const runner = startRetinue(['run', '--base-url', server.baseURL, '--model', 'page-model', '--prompt', 'Take your time.']);

      await expect.poll(() => server.requests.length, { timeout: PROCESS_TIMEOUT, interval: 100 }).toBe(1);
      runner.process.kill('SIGINT');
      const actual = await runner.result;

      expect(actual.exitCode).toBe(1);
      expect(actual.stderr).toMatch(/retinue: the run cancelled/);
      expect(server.requests[0]?.outcome).toBe('client-closed');
    },
    PROCESS_TIMEOUT,
  );

  test(
    'bad arguments and a bad settings file exit 2 and say what is wrong, without calling the model',
    async () => {
      const settingsFile = await writeJson('bad-settings.json', { version: 1, connections: [{ id: 'x', baseURL: 'not a url', defaultModel: 'm' }] });

      const [missingModel, badSettings] = await Promise.all([
        runRetinue(['run', '--base-url', server.baseURL, '--prompt', 'Hi.']),
        runRetinue(['run', '--base-url', server.baseURL, '--model', 'm', '--prompt', 'Hi.', '--settings', settingsFile]),
      ]);

      expect(missingModel.exitCode).toBe(2);
      expect(missingModel.stderr).toContain('--model is required');
      expect(missingModel.stderr).toContain('Usage: npm run retinue -- run');
      expect(badSettings.exitCode).toBe(2);
      expect(badSettings.stderr).toContain('is not a valid settings document');
      expect(badSettings.stderr).toContain('connections[0].baseURL');
      expect(server.requests).toEqual([]);
    },
    PROCESS_TIMEOUT,
  );
});
