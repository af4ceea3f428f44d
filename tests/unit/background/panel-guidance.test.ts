import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browser } from 'wxt/browser';
import { installPanelService, type PanelActionOutcome } from '../../../src/background/panel-service';
import type { BackgroundToPanel } from '../../../src/messaging/panel-messages';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { createConnectionSource, createFakePanelPort } from '../../support/fake-panel-port';
import { uniqueDatabaseName } from '../../support/record-builders';

async function settle(): Promise<void> {
  for (let round = 0; round < 5; round += 1) await new Promise((resolve) => setTimeout(resolve, 0));
}

function errors(messages: BackgroundToPanel[]): string[] {
  return messages.flatMap((message) => (message.type === 'panel-error' ? [message.code] : []));
}

describe('guidance notes and the Run button through the panel service', () => {
  let store: RunStore;
  let calls: unknown[];
  let answer: PanelActionOutcome;
  let connections: ReturnType<typeof createConnectionSource>;
  let stop: () => void;

  beforeEach(async () => {
    store = await openRunStore({ name: uniqueDatabaseName() });
    calls = [];
    answer = { ok: true };
    connections = createConnectionSource();
    stop = installPanelService({
      store,
      cancelRun: () => undefined,
      cancelTask: () => undefined,
      reviewTask: async () => ({ ok: true }) as never,
      sendGuidance: async (runId, request) => (calls.push(['guidance', runId, request]), answer),
      runAgent: async (runId, agentId) => (calls.push(['run', runId, agentId]), answer),
      connections,
      announce: async () => undefined,
    });
  });

  afterEach(() => {
    stop();
    store.close();
  });

  it('takes a note and a Run from the side panel and tells it a refusal', async () => {
    const panel = createFakePanelPort({ url: browser.runtime.getURL('/sidepanel.html') });
    connections.connect(panel);
    panel.send({ type: 'send-guidance', runId: 'run-a', taskId: 'task-1', text: 'Mention the ring.' });
    panel.send({ type: 'send-guidance', runId: 'run-a', text: 'Shorter.' });
    panel.send({ type: 'run-agent', runId: 'run-a', agentId: 'tracker' });
    await settle();
    expect(calls).toEqual([
      ['guidance', 'run-a', { taskId: 'task-1', text: 'Mention the ring.' }],
      ['guidance', 'run-a', { text: 'Shorter.' }],
      ['run', 'run-a', 'tracker'],
    ]);
    expect(panel.received).toEqual([]);

    answer = { ok: false, code: 'guidance-task-ended', message: 'The task critic has ended, so a note cannot reach it any more.' };
    panel.send({ type: 'send-guidance', runId: 'run-a', taskId: 'task-1', text: 'Late.' });
    await settle();
    expect(errors(panel.received)).toEqual(['guidance-task-ended']);
  });

  it('refuses notes from other extension pages, and oversized ones', async () => {
    const options = createFakePanelPort({ url: browser.runtime.getURL('/options.html') });
    const panel = createFakePanelPort({ url: browser.runtime.getURL('/sidepanel.html') });
    connections.connect(options);
    connections.connect(panel);
    options.send({ type: 'send-guidance', runId: 'run-a', text: 'From the options page.' });
    options.send({ type: 'run-agent', runId: 'run-a', agentId: 'tracker' });
    panel.send({ type: 'send-guidance', runId: 'run-a', text: 'x'.repeat(2_001) });
    await settle();
    expect(calls).toEqual([]);
    expect(errors(options.received)).toEqual(['guidance-side-panel-only', 'run-agent-side-panel-only']);
    expect(errors(panel.received)).toEqual(['panel-message-invalid']);
  });
});
