// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/preact';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { JournalEvent } from '../../../src/records/journal';
import { CostLine } from '../../../src/ui/side-panel/cost-line';
import { summariseTaskCost, tokenCapReached } from '../../../src/ui/side-panel/task-cost';
import { buildRun } from '../../support/record-builders';
import { installEnglishMessages } from '../../support/english-messages';

beforeAll(installEnglishMessages);
afterEach(cleanup);

const START = 80_000;
let seq = 0;
// One object for any type: the union is too wide for TypeScript to check it by its discriminant.
const event = (type: JournalEvent['type'], data: Record<string, unknown>, ids: { invocationId?: string; taskId?: string } = {}): JournalEvent =>
  ({ runId: 'run-1', seq: ++seq, time: START + seq, type, ...ids, data }) as JournalEvent;

/** One finished call of an invocation (a task's when `taskId` is given). */
function call(ids: { invocationId: string; taskId?: string }, round: number, model: string, usage: Record<string, unknown>): JournalEvent[] {
  return [event('model-call-start', { round, model }, ids), event('model-call-end', { round, ok: true, usage }, ids)];
}
const used = (promptTokens: number, completionTokens: number, estimated?: boolean) => ({ rounds: 1, promptTokens, completionTokens, totalTokens: promptTokens + completionTokens, ...(estimated ? { estimated } : {}) });

function journal(): JournalEvent[] {
  const critic = { invocationId: 'inv-critic', taskId: 'task-critic' };
  return [
    ...call({ invocationId: 'root' }, 1, 'page model', used(1_000, 40)),
    event('task-start', { workspaceKey: 'scene-critic', agentId: 'scene-critic' }, { invocationId: 'root', taskId: 'task-critic' }),
    ...call(critic, 1, 'page model', used(600, 30, true)),
    ...call(critic, 2, 'page model', used(700, 20, true)),
    ...call({ invocationId: 'root' }, 2, 'page model', used(1_300, 90)),
    event('token-cap-reached', { cap: 3_000, totalTokens: 3_780 }),
  ];
}

describe('summariseTaskCost', () => {
  it('sums tokens per task and model, the root first, estimated calls counted', () => {
    const actual = summariseTaskCost(journal());

    expect(actual).toEqual([
      { taskName: undefined, model: 'page model', calls: 2, tokensIn: 2_300, tokensOut: 130, estimatedCalls: 0, unreportedCalls: 0 },
      { taskName: 'scene-critic', model: 'page model', calls: 2, tokensIn: 1_300, tokensOut: 50, estimatedCalls: 2, unreportedCalls: 0 },
    ]);
  });

  it('reads the token limit once the journal says it was reached, and nothing before', () => {
    expect(tokenCapReached(journal())).toEqual({ cap: 3_000, totalTokens: 3_780 });
    expect(tokenCapReached(journal().filter((entry) => entry.type !== 'token-cap-reached'))).toBeUndefined();
  });
});

describe('CostLine by task and the token limit', () => {
  it('shows each task’s tokens with its model, estimated ones marked, and says the limit was reached', () => {
    render(<CostLine run={buildRun({ createdAt: START, endedAt: START + 5_000 })} journal={journal()} now={0} />);

    const critic = document.querySelector('.cost-by-task [data-task-name="scene-critic"]')!.textContent;
    expect(critic).toContain('scene-critic');
    expect(critic).toContain('page model');
    expect(critic).toContain('1,300 tokens in, 50 out (estimated)');
    const root = document.querySelector('.cost-by-task [data-task-name=""]')!.textContent;
    expect(root).toContain('root');
    expect(root).not.toContain('estimated');
    expect(document.querySelector('.token-cap-note')!.textContent).toBe(
      'Token limit reached: 3,780 of 3,000 tokens. No new tasks were started; running tasks wrapped up and the root wrote the reply.',
    );
  });

  it('says nothing of a limit in a run that did not reach one', () => {
    render(<CostLine run={buildRun({ createdAt: START, endedAt: START + 5_000 })} journal={journal().slice(0, -1)} now={0} />);

    expect(document.querySelector('.token-cap-note')).toBeNull();
  });
});
