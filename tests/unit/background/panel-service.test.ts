import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browser } from 'wxt/browser';
import { installPanelService } from '../../../src/background/panel-service';
import type { BackgroundToPanel } from '../../../src/messaging/panel-messages';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { createConnectionSource, createFakePanelPort } from '../../support/fake-panel-port';
import { buildRun, uniqueDatabaseName } from '../../support/record-builders';

const SITE = 'http://127.0.0.1:8000';
const OTHER_SITE = 'http://localhost:9000';

function journalTypes(messages: BackgroundToPanel[]): string[] {
  return messages.flatMap((message) => (message.type === 'journal-event' ? [`${message.event.runId}:${message.event.type}`] : []));
}

async function settle(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('installPanelService', () => {
  let store: RunStore;
  let cancelledRuns: string[];
  let cancelledTasks: Array<[string, string]>;
  let connections: ReturnType<typeof createConnectionSource>;
  let stop: () => void;
  let announcements: BackgroundToPanel[];

  beforeEach(async () => {
    store = await openRunStore({ name: uniqueDatabaseName() });
    cancelledRuns = [];
    cancelledTasks = [];
    announcements = [];
    connections = createConnectionSource();
    stop = installPanelService({
      store,
      cancelRun: (runId) => void cancelledRuns.push(runId),
      cancelTask: (runId, taskId) => void cancelledTasks.push([runId, taskId]),
      reviewTask: async () => ({ ok: false, code: 'run-not-active', message: 'not in this test' }),
      connections,
      isTrustedPort: (port) => port.sender?.url?.startsWith('chrome-extension://retinue/') === true,
      announce: async (message) => void announcements.push(message),
    });
  });

  afterEach(() => {
    stop();
    store.close();
  });

  it('announces itself so an open panel reconnects after the worker restarts', () => {
    expect(announcements).toEqual([{ type: 'panel-service-ready' }]);
  });

  it('forwards journal events of the subscribed run only, as they are appended', async () => {
    const port = createFakePanelPort();
    connections.connect(port);
    port.send({ type: 'subscribe-run', runId: 'run-a' });

    await store.appendJournal({ runId: 'run-a', type: 'run-start' });
    await store.appendJournal({ runId: 'run-b', type: 'run-start' });
    await store.appendJournal({ runId: 'run-a', type: 'task-queued', taskId: 'task-1' });
    await settle();

    expect(journalTypes(port.received)).toEqual(['run-a:run-start', 'run-a:task-queued']);
  });

  it('forwards the events of every run of the subscribed origin, in order', async () => {
    await store.putRun(buildRun({ id: 'run-here', origin: SITE, status: 'running' }));
    await store.putRun(buildRun({ id: 'run-there', origin: OTHER_SITE, status: 'running' }));
    const port = createFakePanelPort();
    connections.connect(port);
    port.send({ type: 'subscribe-origin', origin: SITE });

    await store.appendJournal({ runId: 'run-here', type: 'run-start' });
    await store.appendJournal({ runId: 'run-there', type: 'run-start' });
    await store.appendJournal({ runId: 'run-here', type: 'task-start', taskId: 'task-1' });
    await store.appendJournal({ runId: 'run-here', type: 'task-end', taskId: 'task-1' });
    await settle();

    expect(journalTypes(port.received)).toEqual(['run-here:run-start', 'run-here:task-start', 'run-here:task-end']);
  });

  it('stops forwarding after unsubscribe and after the panel disconnects', async () => {
    const first = createFakePanelPort();
    const second = createFakePanelPort();
    connections.connect(first);
    connections.connect(second);
    first.send({ type: 'subscribe-run', runId: 'run-a' });
    second.send({ type: 'subscribe-run', runId: 'run-a' });
    first.send({ type: 'unsubscribe' });
    second.disconnect();

    await store.appendJournal({ runId: 'run-a', type: 'run-start' });
    await settle();

    expect(first.received).toEqual([]);
    expect(second.received).toEqual([]);
  });

  it('tells every subscribed panel which runs were deleted (a deletion, a prune), after what it was sent before', async () => {
    await store.putRun(buildRun({ id: 'run-here', origin: SITE, status: 'completed', createdAt: 5_000 }));
    await store.putRun(buildRun({ id: 'run-old', origin: SITE, status: 'completed', createdAt: 1_000 }));
    await store.putRun(buildRun({ id: 'run-there', origin: OTHER_SITE, status: 'completed', createdAt: 1_000 }));
    await store.putRun(buildRun({ id: 'run-working', origin: SITE, status: 'running', createdAt: 1_000 }));
    const [followingSite, followingRun, idle] = [createFakePanelPort(), createFakePanelPort(), createFakePanelPort()];
    for (const port of [followingSite, followingRun, idle]) connections.connect(port);
    followingSite.send({ type: 'subscribe-origin', origin: SITE });
    followingRun.send({ type: 'subscribe-run', runId: 'run-here' });

    await store.appendJournal({ runId: 'run-here', type: 'run-end' });
    await store.deleteRun('run-here');
    expect(await store.pruneRuns(2_000)).toBe(2);
    expect(await store.pruneRuns(2_000)).toBe(0);
    await settle();

    const expected: BackgroundToPanel[] = [
      { type: 'runs-deleted', runIds: ['run-here'] },
      { type: 'runs-deleted', runIds: ['run-old', 'run-there'] },
    ];
    expect(followingSite.received.map((message) => message.type)).toEqual(['journal-event', 'runs-deleted', 'runs-deleted']);
    expect(followingSite.received.slice(1)).toEqual(expected);
    expect(followingRun.received.slice(1)).toEqual(expected);
    expect(idle.received).toEqual([]);
  });

  it('names at most 500 deleted runs a message', async () => {
    const port = createFakePanelPort();
    connections.connect(port);
    port.send({ type: 'subscribe-origin', origin: SITE });
    for (let index = 0; index < 501; index += 1) await store.putRun(buildRun({ id: `run-${index}`, origin: SITE, status: 'completed', createdAt: 1_000 + index }));

    await store.pruneRuns(10_000);
    await settle();

    const deletions = port.received.flatMap((message) => (message.type === 'runs-deleted' ? [message.runIds] : []));
    expect(deletions.map((runIds) => runIds.length)).toEqual([500, 1]);
    expect(new Set(deletions.flat()).size).toBe(501);
  });

  it('cancels a task and a run when the panel asks', () => {
    const port = createFakePanelPort();
    connections.connect(port);

    port.send({ type: 'cancel-task', runId: 'run-a', taskId: 'task-2' });
    port.send({ type: 'cancel-run', runId: 'run-a' });

    expect(cancelledTasks).toEqual([['run-a', 'task-2']]);
    expect(cancelledRuns).toEqual(['run-a']);
  });

  it('answers a malformed message with an error and does nothing else', () => {
    const port = createFakePanelPort();
    connections.connect(port);

    port.send({ type: 'cancel-run' });
    port.send({ type: 'delete-everything' });

    expect(cancelledRuns).toEqual([]);
    expect(port.received.map((message) => message.type)).toEqual(['panel-error', 'panel-error']);
  });

  it('ignores Ports from web pages and Ports with another name', async () => {
    const fromPage = createFakePanelPort({ url: 'http://127.0.0.1:8000/chat' });
    const otherName = createFakePanelPort({ name: 'bridge' });
    connections.connect(fromPage);
    connections.connect(otherName);
    fromPage.send({ type: 'subscribe-run', runId: 'run-a' });
    fromPage.send({ type: 'cancel-run', runId: 'run-a' });
    otherName.send({ type: 'cancel-run', runId: 'run-a' });

    await store.appendJournal({ runId: 'run-a', type: 'run-start' });
    await settle();

    expect(cancelledRuns).toEqual([]);
    expect(fromPage.received).toEqual([]);
  });
});

describe('installPanelService with the real trust check', () => {
  it('serves the extension’s own pages only: a content script’s Port carrying a page URL gets nothing and cancels nothing', async () => {
    const store = await openRunStore({ name: uniqueDatabaseName() });
    const cancelledRuns: string[] = [];
    const connections = createConnectionSource();
    const stop = installPanelService({ store, cancelRun: (runId) => void cancelledRuns.push(runId), cancelTask: () => undefined, reviewTask: async () => ({ ok: false, code: 'run-not-active', message: 'not in this test' }), connections, announce: async () => undefined });
    try {
      const fromPage = createFakePanelPort({ url: `${SITE}/chat` });
      const lookalike = createFakePanelPort({ url: `${SITE}/${browser.runtime.getURL('/sidepanel.html')}` });
      const panel = createFakePanelPort({ url: browser.runtime.getURL('/sidepanel.html') });
      for (const port of [fromPage, lookalike, panel]) {
        connections.connect(port);
        port.send({ type: 'subscribe-run', runId: 'run-a' });
      }
      fromPage.send({ type: 'cancel-run', runId: 'run-a' });
      lookalike.send({ type: 'cancel-run', runId: 'run-a' });

      await store.appendJournal({ runId: 'run-a', type: 'run-start' });
      await settle();

      expect(journalTypes(fromPage.received)).toEqual([]);
      expect(journalTypes(lookalike.received)).toEqual([]);
      expect(journalTypes(panel.received)).toEqual(['run-a:run-start']);
      expect(cancelledRuns).toEqual([]);
      panel.send({ type: 'cancel-run', runId: 'run-a' });
      expect(cancelledRuns).toEqual(['run-a']);
    } finally {
      stop();
      store.close();
    }
  });
});
