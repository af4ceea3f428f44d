import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { runHeadless } from '../../../src/runner/run-headless';
import { createAgentRuntime } from '../../../src/runtime/create-agent-runtime';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';

/**
 * The runner fails open as the browser does (DESIGN.md §13): a run the endpoint cannot serve ends
 * with the model's plain answer to the snapshot, sent once without Retinue's additions, exit 0.
 */

let server: ScriptedModelServer;

beforeEach(async () => {
  server = await startScriptedModelServer({ models: ['page-model'] });
  server.script((request) =>
    request.toolNames.length > 0 ? { fault: 'status', status: 400, message: 'tools param requires --jinja flag' } : { content: 'The storm breaks over the lighthouse.' },
  );
});

afterEach(async () => {
  await server.close();
});

async function run(extra: string[]) {
  let stdout = '';
  let stderr = '';
  const exitCode = await runHeadless({
    argv: ['run', '--base-url', server.baseURL, '--model', 'page-model', '--prompt', 'Write the storm scene.', ...extra],
    writeOut: (text) => void (stdout += text),
    writeError: (text) => void (stderr += text),
    createRuntime: createAgentRuntime,
    clientOptions: { maxRetries: 0 },
  });
  return { exitCode, stdout, stderr };
}

describe('retinue run against an endpoint that refuses tools', () => {
  test('prints the plain answer and exits 0, saying why on stderr', async () => {
    const actual = await run([]);

    expect(actual.exitCode).toBe(0);
    expect(actual.stdout.split('\n\n')[0]).toBe('The storm breaks over the lighthouse.');
    expect(actual.stderr).toContain('Retinue could not do this run (tools-refused)');
    const plain = server.requests.filter((request) => request.toolNames.length === 0);
    expect(plain).toHaveLength(1);
    expect(plain[0]?.body.messages).toEqual([{ role: 'user', content: 'Write the storm scene.' }]);
    expect(plain[0]?.body.model).toBe('page-model');
  });

  test('--json carries the fallback and the plain answer as the reply', async () => {
    const actual = await run(['--json']);

    expect(actual.exitCode).toBe(0);
    const report = JSON.parse(actual.stdout) as { reply: string; fallback?: { code: string; reason: string }; run: { status: string } };
    expect(report.reply).toBe('The storm breaks over the lighthouse.');
    expect(report.fallback).toEqual({ code: 'tools-refused', reason: expect.stringContaining('tools param requires --jinja flag') as string });
    expect(report.run.status).toBe('failed');
  });

  test('a refused key still fails with exit 1 and no plain request', async () => {
    server.reset();
    server.script(() => ({ fault: 'status', status: 401, message: 'invalid api key' }));

    const actual = await run([]);

    expect(actual.exitCode).toBe(1);
    expect(actual.stderr).toContain('provider-unauthorized');
    expect(server.requests).toHaveLength(1);
  });
});
