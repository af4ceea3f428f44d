// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/preact';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { CadenceUsageLine } from '../../../src/ui/side-panel/cadence-usage-line';
import { GuidancePanel } from '../../../src/ui/side-panel/guidance-panel';
import { TaskList } from '../../../src/ui/side-panel/task-list';
import { buildRun, buildTask, uniqueDatabaseName } from '../../support/record-builders';
import { installEnglishMessages } from '../../support/english-messages';

beforeAll(installEnglishMessages);
afterEach(cleanup);

const usage = (rounds: number, totalTokens: number) => ({ rounds, toolCalls: 0, promptTokens: totalTokens, completionTokens: 0, totalTokens });

describe('why it ran (issue 25 item 4)', () => {
  let store: RunStore;
  beforeEach(async () => {
    store = await openRunStore({ name: uniqueDatabaseName() });
  });

  it('each task says why it ran: its cadence, the Run button, the writer, or the helper that handed it on', () => {
    const tasks = [
      buildTask({ id: 'tracker', workspaceKey: 'tracker', childInvocationId: 'child-tracker', startedBy: 'cadence', cadence: 'every 3 turns' }),
      buildTask({ id: 'after', workspaceKey: 'summariser', childInvocationId: 'child-after', startedBy: 'cadence', cadence: 'after the reply' }),
      buildTask({ id: 'user', workspaceKey: 'researcher', childInvocationId: 'child-user', startedBy: 'user' }),
      buildTask({ id: 'asked', workspaceKey: 'scene-critic', childInvocationId: 'child-asked' }),
      buildTask({ id: 'nested', workspaceKey: 'continuity-checker', parentInvocationId: 'child-asked' }),
    ];
    render(<TaskList tasks={tasks} store={store} now={0} onCancel={() => undefined} />);
    const reason = (id: string) => document.querySelector(`[data-task-id="${id}"] .task-reason`)?.textContent;
    expect(reason('tracker')).toBe('runs every 3 turns');
    expect(reason('after')).toBe('runs after the reply');
    expect(reason('user')).toBe('run from the side panel');
    expect(reason('asked')).toBe('asked by the writer');
    expect(reason('nested')).toBe('asked by scene-critic');
  });

  it('the run shows one line of calls and tokens for the helpers started on a cadence, and none without them', () => {
    const { container, rerender } = render(<CadenceUsageLine tasks={[buildTask({ usage: usage(4, 999) })]} />);
    expect(container.textContent).toBe('');
    rerender(
      <CadenceUsageLine
        tasks={[buildTask({ startedBy: 'cadence', cadence: 'every turn', usage: usage(2, 1_000) }), buildTask({ startedBy: 'cadence', cadence: 'after the reply', usage: usage(3, 240) }), buildTask({ usage: usage(9, 9_999) })]}
      />,
    );
    expect(container.textContent).toBe('Helpers on a cadence this turn: 5 calls, 1,240 tokens');
  });
});

describe('guidance notes (issue 25 item 3)', () => {
  it('sends a note to the chosen running task, and lists notes as waiting or in the request', () => {
    const sent: Array<[string | undefined, string]> = [];
    const run = buildRun({
      status: 'running',
      guidance: [
        { id: 'n1', invocationId: 'root-1', text: 'Shorter, please.', sentAt: 1, appliedAt: 2 },
        { id: 'n2', invocationId: 'child-running', taskId: 'running', text: 'The duke is left-handed.', sentAt: 3 },
      ],
    });
    const tasks = [buildTask({ id: 'running', workspaceKey: 'scene-critic', status: 'running' }), buildTask({ id: 'done', workspaceKey: 'researcher', status: 'completed' })];
    render(<GuidancePanel run={run} tasks={tasks} onSend={(taskId, text) => sent.push([taskId, text])} />);
    expect(screen.getByText(/In its request: Shorter, please\./)).toBeTruthy();
    expect(screen.getByText(/Sent, waiting for its next call: The duke is left-handed\./)).toBeTruthy();
    const options = [...document.querySelectorAll('option')].map((option) => option.textContent);
    expect(options).toEqual(['the writer', 'scene-critic']);
    // As a browser does when the user picks an option: input, then change (preact/compat listens to the first).
    const select = document.querySelector('select') as HTMLSelectElement;
    fireEvent.input(select, { target: { value: 'running' } });
    fireEvent.change(select);
    expect(document.querySelector('.guidance-target')?.textContent).toBe('Note to scene-critic');
    fireEvent.input(screen.getByRole('textbox'), { target: { value: '  Mention the ring.  ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send note' }));
    expect(sent).toEqual([['running', 'Mention the ring.']]);
  });

  it('offers no writer once it replied, and nothing on an ended run with no notes', () => {
    const { container, rerender } = render(<GuidancePanel run={buildRun({ status: 'running', repliedAt: 5 })} tasks={[]} onSend={() => undefined} />);
    expect(container.textContent).toBe('');
    rerender(<GuidancePanel run={buildRun({ status: 'completed' })} tasks={[buildTask({ status: 'running' })]} onSend={() => undefined} />);
    expect(container.textContent).toBe('');
  });
});
