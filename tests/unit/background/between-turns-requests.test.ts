import { describe, expect, it } from 'vitest';
import { createBetweenTurnsRequests } from '../../../src/background/between-turns-requests';
import type { BetweenTurnsRequest } from '../../../src/messaging/run-port-messages';

// The Run button between turns, background side: a tab of the run's site carries the helper, and
// the side panel gets the runtime's answer once the tab's run port reached it.
const request = { runId: 'run-1', agentId: 'scene-critic', origin: 'http://127.0.0.1:8000' };

describe('between-turns requests', () => {
  it('asks the tabs of the site in turn and answers with what the runtime said once the page took it up', async () => {
    const asked: Array<{ tabId: number; message: BetweenTurnsRequest }> = [];
    const requests = createBetweenTurnsRequests({
      tabsOf: async () => [3, 7],
      sendToTab: async (tabId, message) => {
        asked.push({ tabId, message });
        if (tabId === 7) setTimeout(() => requests.settle('run-1', 'scene-critic', { ok: true }), 5);
        return { accepted: tabId === 7 };
      },
    });
    expect(await requests.ask(request)).toEqual({ ok: true });
    expect(asked).toEqual([3, 7].map((tabId) => ({ tabId, message: { type: 'run-between-request', runId: 'run-1', agentId: 'scene-critic' } })));
  });

  it('says what to do when no tab can carry it, or the page never answers, and refuses a second press meanwhile', async () => {
    const none = createBetweenTurnsRequests({ tabsOf: async () => [3], sendToTab: async () => Promise.reject(new Error('no receiver')) });
    expect(await none.ask(request)).toMatchObject({ ok: false, code: 'run-agent-no-page' });

    const silent = createBetweenTurnsRequests({ tabsOf: async () => [3], sendToTab: async () => ({ accepted: true }), timeoutMs: 30 });
    const first = silent.ask(request);
    expect(await silent.ask(request)).toMatchObject({ ok: false, code: 'run-agent-already' });
    expect(await first).toMatchObject({ ok: false, code: 'run-agent-no-answer' });
  });

  it('hands a refusal of the runtime on as it came', async () => {
    const requests = createBetweenTurnsRequests({
      tabsOf: async () => [3],
      sendToTab: async () => (setTimeout(() => requests.settle('run-1', 'scene-critic', { ok: false, code: 'run-agent-refused', message: 'The run reached its spend cap.' }), 5), { accepted: true }),
    });
    expect(await requests.ask(request)).toEqual({ ok: false, code: 'run-agent-refused', message: 'The run reached its spend cap.' });
  });
});
