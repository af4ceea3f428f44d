import { afterEach, beforeEach, expect, test } from 'vitest';
import { createBackgroundContext, type BackgroundContext } from '../../../src/background/background-context';
import { recoverInterruptedRuns } from '../../../src/background/interrupted-runs';
import type { RunServicePort } from '../../../src/background/run-port-handler';
import { installRunService } from '../../../src/background/run-service';
import type { BackgroundToBridgeMessage } from '../../../src/messaging/run-port-messages';
import { settingsSchema, type Settings } from '../../../src/settings/schema';
import { openRunStore } from '../../../src/store/idb-run-store';
import { createPortPair } from '../../support/in-memory-run-ports';
import { buildRun, uniqueDatabaseName } from '../../support/record-builders';
import { startScriptedModelServer, type ScriptedModelServer, type ScriptedRequest } from '../../support/scripted-model-server';

/**
 * A service worker restart with two runs working: one page is still waiting and reconnects, the other
 * is gone. Real store, runtime, run service and model client; only the browser's ports are simulated.
 */

const PAGE_ORIGIN = 'http://127.0.0.1:8000';
const isRoot = (request: ScriptedRequest) => request.systemText.includes('[[root]]');

let server: ScriptedModelServer;
let storeName: string;
let settings: Settings;
let portListeners: ((port: RunServicePort) => void)[];

function startBackground(): BackgroundContext {
  const context = createBackgroundContext({ openStore: () => openRunStore({ name: storeName }), loadSettings: async () => settings, watchSettings: () => () => undefined });
  portListeners = [];
  installRunService({ context, connections: { addListener: (listener) => void portListeners.push(listener) }, recordNotice: () => undefined, clientOptions: { maxRetries: 0 } });
  return context;
}

/** A page's bridge connecting a run port; returns what the background sends back. */
function connectPage(first: unknown): { messages: BackgroundToBridgeMessage[]; next(type: BackgroundToBridgeMessage['type']): Promise<BackgroundToBridgeMessage> } {
  const pair = createPortPair({ url: `${PAGE_ORIGIN}/chat.html`, tab: { id: 1 } });
  const messages: BackgroundToBridgeMessage[] = [];
  const waiting: { type: string; resolve: (message: BackgroundToBridgeMessage) => void }[] = [];
  pair.bridgeEnd.onMessage.addListener((raw) => {
    const message = raw as BackgroundToBridgeMessage;
    messages.push(message);
    waiting.filter((entry) => entry.type === message.type).forEach((entry) => entry.resolve(message));
  });
  portListeners.forEach((listener) => listener(pair.backgroundEnd));
  pair.bridgeEnd.postMessage(first as never);
  return {
    messages,
    next: (type) => {
      const seen = messages.find((message) => message.type === type);
      return seen ? Promise.resolve(seen) : new Promise((resolve) => waiting.push({ type, resolve }));
    },
  };
}

const runStart = (text: string) => ({ type: 'run-start', adapter: 'openai-chat', body: { model: 'scripted-model', stream: false, messages: [{ role: 'user', content: text }] } });

beforeEach(async () => {
  server = await startScriptedModelServer();
  storeName = uniqueDatabaseName();
  settings = settingsSchema.parse({
    version: 1,
    connections: [{ id: 'local', baseURL: server.baseURL, apiKey: 'sk-local', defaultModel: 'scripted-model' }],
    profiles: [
      {
        id: 'root',
        name: 'Writer',
        description: 'The writer.',
        systemPrompt: '[[root]] You write the reply.',
        model: { binding: 'connection', connectionId: 'local' },
        tools: { allow: ['agent.list'] },
        delegation: { canDelegate: true, callable: false },
      },
    ],
    sites: [{ origin: PAGE_ORIGIN, enabled: true }],
  });
});

afterEach(async () => {
  await server.close();
});

test('after a restart the run whose page reconnects is resumed and completes; the one nobody waits for is interrupted', async () => {
  // Runs one and two hang in their root's first model call; the resumed run's call waits for the test.
  let rootCalls = 0;
  let bothWorking: () => void = () => undefined;
  const bothWorkingNow = new Promise<void>((resolve) => (bothWorking = resolve));
  let resumedCallArrived: () => void = () => undefined;
  const resumedCallArrivedNow = new Promise<void>((resolve) => (resumedCallArrived = resolve));
  let releaseResumedCall: () => void = () => undefined;
  const resumedCallMayAnswer = new Promise<void>((resolve) => (releaseResumedCall = resolve));
  server.script(async (request) => {
    if (!isRoot(request)) return undefined;
    rootCalls += 1;
    if (rootCalls <= 2) {
      if (rootCalls === 2) bothWorking();
      return { fault: 'hang' };
    }
    resumedCallArrived();
    await resumedCallMayAnswer;
    return { content: 'The resumed reply.' };
  });

  const firstContext = startBackground();
  const waitingPage = connectPage(runStart('The duel in the rain.'));
  const leftPage = connectPage(runStart('The feast in the hall.'));
  const waitingRunId = ((await waitingPage.next('run-accepted')) as { runId: string }).runId;
  const leftRunId = ((await leftPage.next('run-accepted')) as { runId: string }).runId;
  await bothWorkingNow;
  // The browser stops the worker: its runtime stops where it stands, the runs stay `running`.
  await (await firstContext.getRuntime()).shutdown();

  const context = startBackground();
  let endGrace: () => void = () => undefined;
  const graceOver = new Promise<void>((resolve) => (endGrace = resolve));
  // The sweep lists the store only after the waking turn's head start: here once the resumed run works again.
  let endHeadStart: () => void = () => undefined;
  const headStartOver = new Promise<void>((resolve) => (endHeadStart = resolve));
  const recovery = recoverInterruptedRuns({ context, waitBeforeListing: () => headStartOver, waitForGrace: () => graceOver });
  const reconnected = connectPage({ type: 'run-resume', runId: waitingRunId });
  await resumedCallArrivedNow;
  endHeadStart();
  endGrace();
  const interrupted = await recovery;
  releaseResumedCall();
  const reply = await reconnected.next('run-reply');

  expect(interrupted.map((run) => run.id)).toEqual([leftRunId]);
  // The resumed root wrote its reply anew, and it already went to the page as it was written.
  expect(reply).toEqual({ type: 'run-reply', reply: 'The resumed reply.', streamed: true });
  const store = await context.getStore();
  const resumedRun = await store.getRun(waitingRunId);
  expect(resumedRun?.status).toBe('completed');
  expect((await store.readJournal(waitingRunId)).map((event) => event.type)).toContain('run-resume');
  const leftRun = await store.getRun(leftRunId);
  expect(leftRun).toMatchObject({ status: 'interrupted', error: { code: 'interrupted', message: expect.stringContaining('send the message again') } });
  expect(leftRun?.endedAt).toBeGreaterThanOrEqual(leftRun?.createdAt ?? Infinity);
  const leftJournal = await store.readJournal(leftRunId);
  expect(leftJournal.at(-1)).toMatchObject({ type: 'run-end', data: { status: 'interrupted' } });
  const [leftRoot] = await store.listInvocations(leftRunId);
  expect(leftRoot?.status).toBe('cancelled');

  // The page of the interrupted run, coming back too late, is told in words instead of hanging.
  const late = connectPage({ type: 'run-resume', runId: leftRunId });
  const failure = await late.next('run-failed');
  expect(failure).toMatchObject({ status: 503, message: expect.stringContaining('restarted') });
});

test('a start-up with no run left working waits for nothing and marks nothing', async () => {
  const context = startBackground();
  let waited = false;
  const interrupted = await recoverInterruptedRuns({ context, waitBeforeListing: async () => undefined, waitForGrace: async () => void (waited = true) });
  expect({ interrupted, waited }).toEqual({ interrupted: [], waited: false });
});

test("a start-up reads the store's runs only after the waking event's head start, then marks a run nobody took up", async () => {
  const context = startBackground();
  const store = await context.getStore();
  await store.putRun(buildRun({ id: 'left-working', status: 'running', createdAt: Date.now() - 60_000 }));
  let endHeadStart: () => void = () => undefined;
  const headStartOver = new Promise<void>((resolve) => (endHeadStart = resolve));
  let graceAsked = false;
  const recovery = recoverInterruptedRuns({
    context,
    waitBeforeListing: () => headStartOver,
    waitForGrace: async () => void (graceAsked = true),
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect({ graceAsked, status: (await store.getRun('left-working'))?.status }).toEqual({ graceAsked: false, status: 'running' });

  endHeadStart();
  expect((await recovery).map((run) => run.id)).toEqual(['left-working']);
  expect(graceAsked).toBe(true);
  expect((await store.getRun('left-working'))?.status).toBe('interrupted');
});
