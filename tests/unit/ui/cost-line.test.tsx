// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/preact';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEvent, JournalEventData } from '../../../src/records/journal';
import { CostLine } from '../../../src/ui/side-panel/cost-line';
import { HistoryRow } from '../../../src/ui/side-panel/history-row';
import { summariseRunCost } from '../../../src/ui/side-panel/run-cost';
import { buildRun } from '../../support/record-builders';
import { installEnglishMessages, installMessages } from '../../support/english-messages';
import chineseMessages from '../../../public/_locales/zh_CN/messages.json';
import { TaskRanWithLine } from '../../../src/ui/side-panel/task-ran-with';

beforeAll(installEnglishMessages);
afterEach(cleanup);

const START = 50_000;
let seq = 0;

/** One finished model call of `invocationId`, `model` named at its start, `usage` at its end. */
function call(invocationId: string, round: number, model: string, startedAt: number, tookMs: number, usage?: JournalEventData<'model-call-end'>['usage']): JournalEvent[] {
  return [
    { runId: 'run-1', seq: ++seq, time: startedAt, type: 'model-call-start', invocationId, data: { round, model } },
    { runId: 'run-1', seq: ++seq, time: startedAt + tookMs, type: 'model-call-end', invocationId, data: { round, ok: true, toolCalls: 0, ...(usage ? { usage } : {}) } },
  ];
}

const reported = (promptTokens: number, completionTokens: number) => ({ rounds: 1, promptTokens, completionTokens, totalTokens: promptTokens + completionTokens });

function journal(): JournalEvent[] {
  return [
    ...call('root', 1, 'page model', START, 2_000, reported(1_000, 50)),
    ...call('child-a', 1, 'local · qwen3-8b', START + 2_100, 1_000, reported(400, 100)),
    // Two children at once on the same model: both calls' time counts.
    ...call('child-b', 1, 'local · qwen3-8b', START + 2_200, 1_500, { ...reported(300, 80), estimated: true }),
    ...call('root', 2, 'page model', START + 4_000, 1_000, reported(0, 0)),
    // A failed call carries no usage: it is not counted.
    { runId: 'run-1', seq: ++seq, time: START + 5_100, type: 'model-call-start', invocationId: 'root', data: { round: 3, model: 'page model' } },
    { runId: 'run-1', seq: ++seq, time: START + 5_200, type: 'model-call-end', invocationId: 'root', data: { round: 3, ok: false, error: { code: 'provider', message: 'x' } } },
  ];
}

describe('summariseRunCost', () => {
  it('sums calls, tokens in and out and call time by model, marking estimated and unreported calls', () => {
    const run = buildRun({ createdAt: START, endedAt: START + 6_000 });

    const cost = summariseRunCost(run, journal(), 0);

    expect(cost.byModel).toEqual([
      { model: 'page model', calls: 2, tokensIn: 1_000, tokensOut: 50, estimatedCalls: 0, unreportedCalls: 1, callMilliseconds: 3_000 },
      { model: 'local · qwen3-8b', calls: 2, tokensIn: 700, tokensOut: 180, estimatedCalls: 1, unreportedCalls: 0, callMilliseconds: 2_500 },
    ]);
    expect({ calls: cost.calls, tokensIn: cost.tokensIn, tokensOut: cost.tokensOut, wall: cost.wallMilliseconds }).toEqual({ calls: 4, tokensIn: 1_700, tokensOut: 230, wall: 6_000 });
  });

  it('counts wall time to now while the run is running', () => {
    const run = buildRun({ createdAt: START, status: 'running' });

    expect(summariseRunCost(run, [], START + 7_000).wallMilliseconds).toBe(7_000);
  });
});

describe('CostLine', () => {
  it('shows the totals and one line per model, estimated and unreported usage said in words', () => {
    const run = buildRun({ createdAt: START, endedAt: START + 6_000 });

    render(<CostLine run={run} journal={journal()} now={0} />);

    const total = document.querySelector('.cost-total')!.textContent;
    expect(total).toContain('4 model calls');
    expect(total).toContain('1,700 tokens in, 230 out (estimated)');
    expect(total).toContain('1 call reported no usage');
    expect(total).toContain('wall time 6s');
    const local = document.querySelector('[data-model="local · qwen3-8b"]')!.textContent;
    expect(local).toContain('2 model calls');
    expect(local).toContain('700 tokens in, 180 out (estimated)');
    expect(local).toContain('2.5s in calls');
    expect(document.querySelector('[data-model="page model"]')!.textContent).not.toContain('estimated');
  });

  it('says "no usage reported" where no call of a model reported any', () => {
    const run = buildRun({ createdAt: START, endedAt: START + 3_000 });

    render(<CostLine run={run} journal={call('root', 1, 'page model', START, 1_000, reported(0, 0))} now={0} />);

    expect(document.querySelector('[data-model="page model"]')!.textContent).toContain('no usage reported');
    expect(document.querySelector('.cost-total')!.textContent).not.toContain('tokens in');
  });

  it('says so when no model call has finished yet', () => {
    render(<CostLine run={buildRun({ createdAt: START, status: 'running' })} journal={[]} now={START + 1_000} />);

    expect(screen.getByText('No model call has finished yet.')).toBeTruthy();
  });
});

describe("the page's own model", () => {
  /** A call to the page's own model as the journal names it: English label, the page's model apart. */
  function pageModelCall(invocationId: string, pageModel: string): JournalEvent[] {
    const model = pageModel ? `the page's own model · ${pageModel}` : "the page's own model";
    return [
      { runId: 'run-1', seq: ++seq, time: START, type: 'model-call-start', invocationId, data: { round: 1, model, pageModel } },
      { runId: 'run-1', seq: ++seq, time: START + 500, type: 'model-call-end', invocationId, data: { round: 1, ok: true, usage: reported(10, 2) } },
    ];
  }

  it("is named in the browser's language by model and by task, with the model the page names", () => {
    installMessages(chineseMessages);
    try {
      const run = buildRun({ createdAt: START, endedAt: START + 1_000 });
      const calls = [...pageModelCall('root', 'gpt-4o'), ...pageModelCall('child-a', '')];

      render(<CostLine run={run} journal={calls} now={0} />);

      const byModel = [...document.querySelectorAll('.cost-by-model .cost-model')].map((cell) => cell.textContent);
      expect(byModel).toEqual(['页面自己的模型 · gpt-4o', '页面自己的模型']);
      const byTask = [...document.querySelectorAll('.cost-by-task .cost-model')].map((cell) => cell.textContent);
      expect(byTask).toEqual(['页面自己的模型 · gpt-4o', '页面自己的模型']);
      expect(document.body.textContent).not.toContain("the page's own model");
    } finally {
      installEnglishMessages();
    }
  });

  it('counts a call under the model that answered it when another answered than the start named (a keyed budget spent)', () => {
    installMessages(chineseMessages);
    try {
      const run = buildRun({ createdAt: START, endedAt: START + 1_000 });
      const calls: JournalEvent[] = [
        ...call('child-a', 1, 'Paid · paid-model', START, 500, reported(10, 2)),
        { runId: 'run-1', seq: ++seq, time: START + 600, type: 'model-call-start', invocationId: 'child-a', data: { round: 2, model: 'Paid · paid-model' } },
        { runId: 'run-1', seq: ++seq, time: START + 900, type: 'model-call-end', invocationId: 'child-a', data: { round: 2, ok: true, usage: reported(20, 4), model: "the page's own model", pageModel: 'gpt-4o' } },
      ];

      render(<CostLine run={run} journal={calls} now={0} />);

      const byModel = [...document.querySelectorAll('.cost-by-model li')].map((row) => [row.querySelector('.cost-model')?.textContent, row.getAttribute('data-model')]);
      expect(byModel).toEqual([
        ['Paid · paid-model', 'Paid · paid-model'],
        ['页面自己的模型 · gpt-4o', "the page's own model"],
      ]);
      expect(summariseRunCost(run, calls, 0).byModel.map((cost) => [cost.model, cost.calls, cost.tokensIn, cost.callMilliseconds])).toEqual([
        ['Paid · paid-model', 1, 10, 500],
        ["the page's own model", 1, 20, 300],
      ]);
    } finally {
      installEnglishMessages();
    }
  });

  it("names a helper's model under its task row the same way; a connection keeps its own label", () => {
    installMessages(chineseMessages);
    try {
      render(<TaskRanWithLine ranWith={{ model: "the page's own model · gpt-4o", pageModel: 'gpt-4o', sampling: {}, dropped: [] }} />);
      expect(document.querySelector('[data-ran-with-parts]')!.textContent).toBe('模型 页面自己的模型 · gpt-4o');
      cleanup();
      render(<TaskRanWithLine ranWith={{ model: 'local · qwen3-8b', sampling: {}, dropped: [] }} />);
      expect(document.querySelector('[data-ran-with-parts]')!.textContent).toBe('模型 local · qwen3-8b');
    } finally {
      installEnglishMessages();
    }
  });
});

describe('HistoryRow', () => {
  it('shows the run’s total: model calls, tokens in and out, wall time', () => {
    const run = buildRun({ title: 'The harbour', createdAt: START, endedAt: START + 65_000, usage: { rounds: 7, toolCalls: 3, promptTokens: 12_000, completionTokens: 900, totalTokens: 12_900 } });

    render(<ul><HistoryRow run={run} showOrigin={false} isOpen={false} onOpen={() => undefined} onDelete={() => undefined} /></ul>);

    const open = screen.getByRole('button', { name: /^Open run The harbour/ });
    expect(open.textContent).toContain('7 calls · tokens 12,000 in / 900 out · 1m 05s');
  });

  it('names one call in the singular', () => {
    const run = buildRun({ title: 'One call', status: 'completed', createdAt: START, endedAt: START + 4_000, usage: { rounds: 1, toolCalls: 0, promptTokens: 300, completionTokens: 20, totalTokens: 320 } });

    render(<ul><HistoryRow run={run} showOrigin={false} isOpen={false} onOpen={() => undefined} onDelete={() => undefined} /></ul>);

    expect(document.querySelector('.history-total')?.textContent).toBe('1 call · tokens 300 in / 20 out · 4s');
  });

  it('says a running run is running rather than showing its stored totals, which are written at its end', () => {
    // The stored record of a run mid-way: its usage still the empty one it was created with.
    const run = buildRun({ title: 'Still going', status: 'running', createdAt: START, usage: { rounds: 0, toolCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 } });

    render(<ul><HistoryRow run={run} showOrigin={false} isOpen={false} onOpen={() => undefined} onDelete={() => undefined} /></ul>);

    const total = document.querySelector('.history-total')?.textContent;
    expect(total).toBe('running; its totals come when it ends');
    expect(total).not.toMatch(/\d/);
  });
});
