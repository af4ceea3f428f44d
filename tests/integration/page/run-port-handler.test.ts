import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { createBackgroundContext, type BackgroundContext } from '../../../src/background/background-context';
import { serveRunPort, type RunPortDependencies } from '../../../src/background/run-port-handler';
import { createOriginStorageQuota } from '../../../src/background/origin-storage-quota';
import { createRunRateLimit } from '../../../src/background/run-rate-limit';
import type { HostNotice } from '../../../src/hosts/host-adapter';
import { SNAPSHOT_LIMITS } from '../../../src/hosts/prompt-snapshot';
import type { BackgroundToBridgeMessage, BridgeToBackgroundMessage } from '../../../src/messaging/run-port-messages';
import { settingsSchema, type Settings } from '../../../src/settings/schema';
import { openRunStore } from '../../../src/store/idb-run-store';
import { eventually } from '../../support/fake-run-port';
import { createPortPair } from '../../support/in-memory-run-ports';
import { buildRun, uniqueDatabaseName } from '../../support/record-builders';
import { startScriptedModelServer, type ScriptedModelServer } from '../../support/scripted-model-server';

/**
 * The background's end of a run port on its own (no bridge in front of it): its own site check, the
 * origin of a resumed run, the page's abort, and the limits on runs per minute and on a run's length.
 * The root is bound to a connection here, so no host call needs a page to answer it.
 */

const pageOrigin = 'http://127.0.0.1:8000';
let server: ScriptedModelServer;
let context: BackgroundContext;
let settings: Settings;
let notices: (HostNotice & { origin: string })[];

function settingsWith(site: { enabled: boolean; globalEnabled?: boolean }): Settings {
  return settingsSchema.parse({
    version: 1,
    enabled: site.globalEnabled ?? true,
    connections: [{ id: 'local', baseURL: server.baseURL, defaultModel: 'scripted-model' }],
    profiles: [
      { id: 'root', name: 'Writer', description: 'Writes.', systemPrompt: 'Write.', model: { binding: 'connection', connectionId: 'local' }, delegation: { canDelegate: true, callable: false } },
    ],
    sites: [{ origin: pageOrigin, enabled: site.enabled }],
  });
}

beforeEach(async () => {
  server = await startScriptedModelServer();
  settings = settingsWith({ enabled: true });
  notices = [];
  const storeName = uniqueDatabaseName();
  context = createBackgroundContext({ openStore: () => openRunStore({ name: storeName }), loadSettings: async () => settings, watchSettings: () => () => undefined });
});
afterEach(async () => {
  await server.close();
});

/** Opens one run port from a page of `origin`; returns what the bridge end receives. */
function openRunPort(options: { origin?: string; dependencies?: Partial<RunPortDependencies> } = {}) {
  const pair = createPortPair({ url: `${options.origin ?? pageOrigin}/chat`, tab: { id: 1 } });
  const received: BackgroundToBridgeMessage[] = [];
  const state = { disconnectedByBackground: false };
  pair.bridgeEnd.onMessage.addListener((message) => void received.push(message as BackgroundToBridgeMessage));
  pair.bridgeEnd.onDisconnect.addListener(() => void (state.disconnectedByBackground = true));
  serveRunPort(pair.backgroundEnd, {
    context,
    recordNotice: (origin, notice) => void notices.push({ origin, ...notice }),
    clientOptions: { maxRetries: 0 },
    connectionLimiters: new Map(),
    runRateLimit: createRunRateLimit(),
    ...options.dependencies,
  });
  return { send: (message: BridgeToBackgroundMessage) => pair.bridgeEnd.postMessage(message), received, state };
}

const runStart: BridgeToBackgroundMessage = { type: 'run-start', adapter: 'openai-chat', body: { model: 'm', stream: false, messages: [{ role: 'user', content: 'Hi' }] } };
const runs = async () => (await context.getStore()).listRuns();

describe("the background's own checks on a run port", () => {
  test('with the site off in the settings, a turn passes through whatever the bridge decided', async () => {
    settings = settingsWith({ enabled: false });
    const port = openRunPort();
    port.send(runStart);
    await eventually(() => expect(port.received).toEqual([{ type: 'pass-through' }]));

    settings = settingsWith({ enabled: true, globalEnabled: false });
    const second = openRunPort();
    second.send(runStart);
    await eventually(() => expect(second.received).toEqual([{ type: 'pass-through' }]));
    expect(await runs()).toEqual([]);
    expect(server.requests).toEqual([]);
  });

  test("a run-resume of a run that belongs to another origin is refused and the run is left alone", async () => {
    const store = await context.getStore();
    await store.putRun(buildRun({ id: 'run-elsewhere', origin: 'http://localhost:9000', status: 'running' }));
    const port = openRunPort();
    port.send({ type: 'run-resume', runId: 'run-elsewhere' });

    await eventually(() => expect(port.received).toEqual([expect.objectContaining({ type: 'run-failed', message: expect.stringContaining('no run of this page') })]));
    expect((await store.getRun('run-elsewhere'))?.status).toBe('running');
    expect(server.requests).toEqual([]);
  });

  test('run-abort cancels the run while the port stays open', async () => {
    server.script(() => ({ fault: 'hang' }));
    const port = openRunPort();
    port.send(runStart);
    await eventually(() => expect(port.received.map((message) => message.type)).toContain('run-accepted'));
    await eventually(() => expect(server.requests.length).toBe(1));

    port.send({ type: 'run-abort' });

    await eventually(() => expect(port.received.at(-1)).toMatchObject({ type: 'run-failed', status: 499 }));
    expect(port.state.disconnectedByBackground).toBe(false);
    await expect.poll(async () => (await runs()).map((run) => run.status)).toEqual(['cancelled']);
  });
});

describe('limits on what a page may start', () => {
  test('runs beyond the per-minute limit pass through to the page’s server, and the side panel is told which limit', async () => {
    server.script(() => ({ content: 'Hello.' }));
    const runRateLimit = createRunRateLimit({ perMinute: 2 });
    const ports = [openRunPort({ dependencies: { runRateLimit } }), openRunPort({ dependencies: { runRateLimit } })];
    for (const port of ports) port.send(runStart);
    await eventually(() => expect(ports.map((port) => port.received.at(-1)?.type)).toEqual(['run-reply', 'run-reply']));

    const third = openRunPort({ dependencies: { runRateLimit } });
    third.send(runStart);

    await eventually(() => expect(third.received).toEqual([{ type: 'pass-through' }]));
    expect(notices).toEqual([{ origin: pageOrigin, code: 'limit-runs-per-minute', messageKey: 'page_notice_limit_runs_per_minute', substitutions: ['2'] }]);
    expect((await runs()).length).toBe(2);
  });

  test('a turn over the snapshot size passes through with a notice, whether the bridge or the background measured it', async () => {
    const measuredByBridge = openRunPort();
    measuredByBridge.send({ type: 'run-over-limit', limit: 'snapshot-size' });
    const measuredHere = openRunPort();
    measuredHere.send({ ...runStart, body: { model: 'm', messages: [{ role: 'user', content: 'x'.repeat(SNAPSHOT_LIMITS.maxChars) }] } } as BridgeToBackgroundMessage);

    await eventually(() => expect([measuredByBridge.received, measuredHere.received]).toEqual([[{ type: 'pass-through' }], [{ type: 'pass-through' }]]));
    expect(notices.map((notice) => [notice.code, notice.substitutions])).toEqual([
      ['limit-snapshot-size', [String(SNAPSHOT_LIMITS.maxChars)]],
      ['limit-snapshot-size', [String(SNAPSHOT_LIMITS.maxChars)]],
    ]);
    expect(await runs()).toEqual([]);
  });

  test('a run past the root timeout ends, and the page gets its own generation; the run says which limit', async () => {
    server.script(() => ({ fault: 'hang' }));
    const port = openRunPort({ dependencies: { rootTimeoutMs: 300 } });
    port.send(runStart);

    await eventually(() => expect(port.received.at(-1)).toEqual({ type: 'pass-through' }), 400);
    const [run] = await runs();
    expect(run?.fallback).toMatchObject({ code: 'limit-root-timeout', reason: expect.stringContaining('limit') });
  });

  test('a resumed run keeps its turn’s time limit: it runs from the run’s start, not from the reconnect', { timeout: 15_000 }, async () => {
    server.script(() => ({ fault: 'hang' }));
    // The first worker's own timer is far off: only the resumed run's can end this turn.
    const first = openRunPort({ dependencies: { rootTimeoutMs: 60_000 } });
    first.send(runStart);
    await eventually(() => expect(first.received).toContainEqual(expect.objectContaining({ type: 'run-accepted' })), 2_000);
    const { runId } = first.received.find((message) => message.type === 'run-accepted') as { runId: string };
    // The worker stops; the page reconnects once the turn's time is already up.
    await (await context.getRuntime()).shutdown();
    const [stopped] = await runs();
    while (Date.now() < (stopped?.createdAt ?? 0) + 3_100) await new Promise((resolve) => setTimeout(resolve, 50));

    const resumed = openRunPort({ dependencies: { rootTimeoutMs: 3_000 } });
    resumed.send({ type: 'run-resume', runId });

    // At once, well before a timer counted from the reconnect would end it.
    await eventually(() => expect(resumed.received.at(-1)).toEqual({ type: 'pass-through' }), 2_000);
    expect((await (await context.getStore()).getRun(runId))?.fallback).toMatchObject({ code: 'limit-root-timeout' });
  });
});

describe('the per-origin store quota', () => {
  test('a turn that does not fit the site’s quota, with nothing left to prune, passes through with a notice in the side panel', async () => {
    const store = await context.getStore();
    await store.putRun(buildRun({ id: 'still-working', origin: pageOrigin, status: 'running' }));
    await store.writeFile({ runId: 'still-working', path: 'input/prompt-snapshot.json', content: 'x'.repeat(5_000), updatedAt: 1 });
    const storageQuota = createOriginStorageQuota({ getStore: () => context.getStore(), quotaBytes: 4_000 });
    const port = openRunPort({ dependencies: { storageQuota } });

    port.send(runStart);

    await eventually(() => expect(port.received).toEqual([{ type: 'pass-through' }]));
    expect(notices).toEqual([{ origin: pageOrigin, code: 'limit-origin-storage', messageKey: 'page_notice_limit_origin_storage', substitutions: ['0'] }]);
    expect((await runs()).map((run) => run.id)).toEqual(['still-working']);
    expect(server.requests).toEqual([]);
  });

  test('a run is measured once its reply is out, so the next turn starts without reading it', async () => {
    server.script(() => ({ content: 'Hello.' }));
    const storageQuota = createOriginStorageQuota({ getStore: () => context.getStore(), quotaBytes: 1_000_000 });
    const remembered: string[] = [];
    const quota = { ...storageQuota, remember: async (run: Parameters<typeof storageQuota.remember>[0]) => {
      await storageQuota.remember(run);
      remembered.push(run.id);
    } };
    const port = openRunPort({ dependencies: { storageQuota: quota } });

    port.send(runStart);

    await eventually(() => expect(port.received.at(-1)).toMatchObject({ type: 'run-reply', reply: 'Hello.' }));
    const [run] = await runs();
    await eventually(() => expect(remembered).toEqual([run!.id]));
    await eventually(async () => expect((await (await context.getStore()).getRun(run!.id))?.storedBytes).toBeGreaterThan(0));
  });
});
