import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { browser } from 'wxt/browser';
import { installPanelService } from '../../../src/background/panel-service';
import type { BackgroundToPanel } from '../../../src/messaging/panel-messages';
import type { ReviewDecision } from '../../../src/records/task-review';
import type { ReviewOutcome } from '../../../src/runtime/task-review';
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

describe('review decisions through the panel service (real trust check)', () => {
  let store: RunStore;
  let decisions: Array<[string, string, ReviewDecision]>;
  let answer: ReviewOutcome;
  let connections: ReturnType<typeof createConnectionSource>;
  let stop: () => void;

  beforeEach(async () => {
    store = await openRunStore({ name: uniqueDatabaseName() });
    decisions = [];
    answer = { ok: false, code: 'review-not-awaiting', message: 'The result of critic no longer waits for review: it was approved already.' };
    connections = createConnectionSource();
    stop = installPanelService({
      store,
      cancelRun: () => undefined,
      cancelTask: () => undefined,
      reviewTask: async (runId, taskId, decision) => {
        decisions.push([runId, taskId, decision]);
        return answer;
      },
      connections,
      announce: async () => undefined,
    });
  });

  afterEach(() => {
    stop();
    store.close();
  });

  it('takes an edit from the side panel page, shown as a panel or as a tab with its query', async () => {
    const panel = createFakePanelPort({ url: browser.runtime.getURL('/sidepanel.html') });
    const tab = createFakePanelPort({ url: `${browser.runtime.getURL('/sidepanel.html')}?origin=http%3A%2F%2F127.0.0.1%3A8000` });
    connections.connect(panel);
    connections.connect(tab);

    panel.send({ type: 'review-task', runId: 'run-a', taskId: 'task-1', decision: { kind: 'edit', text: '  The duel is at dawn.  ' } });
    tab.send({ type: 'review-task', runId: 'run-a', taskId: 'task-2', decision: { kind: 'approve' } });
    await settle();

    expect(decisions).toEqual([
      ['run-a', 'task-1', { kind: 'edit', text: 'The duel is at dawn.' }],
      ['run-a', 'task-2', { kind: 'approve' }],
    ]);
  });

  it('refuses review decisions from other extension pages (the options page) and from pages', async () => {
    const options = createFakePanelPort({ url: browser.runtime.getURL('/options.html') });
    const page = createFakePanelPort({ url: 'http://127.0.0.1:8000/sidepanel.html' });
    connections.connect(options);
    connections.connect(page);

    options.send({ type: 'review-task', runId: 'run-a', taskId: 'task-1', decision: { kind: 'discard' } });
    page.send({ type: 'review-task', runId: 'run-a', taskId: 'task-1', decision: { kind: 'discard' } });
    await settle();

    expect(decisions).toEqual([]);
    expect(errors(options.received)).toEqual(['review-refused']);
    // A page's Port is not served at all.
    expect(page.received).toEqual([]);
  });

  it('tells the panel why a decision did not land, in words', async () => {
    const panel = createFakePanelPort({ url: browser.runtime.getURL('/sidepanel.html') });
    connections.connect(panel);

    panel.send({ type: 'review-task', runId: 'run-a', taskId: 'task-1', decision: { kind: 'approve' } });
    await settle();

    const error = panel.received.find((message) => message.type === 'panel-error');
    expect(error).toEqual({ type: 'panel-error', code: 'review-not-awaiting', message: answer.ok ? '' : answer.message });
  });

  it('refuses a malformed decision before it reaches the runtime', async () => {
    const panel = createFakePanelPort({ url: browser.runtime.getURL('/sidepanel.html') });
    connections.connect(panel);

    panel.send({ type: 'review-task', runId: 'run-a', taskId: 'task-1', decision: { kind: 'edit', text: '   ' } });
    panel.send({ type: 'review-task', runId: 'run-a', taskId: 'task-1', decision: { kind: 'rewrite' } });
    await settle();

    expect(decisions).toEqual([]);
    expect(errors(panel.received)).toEqual(['panel-message-invalid', 'panel-message-invalid']);
  });
});
