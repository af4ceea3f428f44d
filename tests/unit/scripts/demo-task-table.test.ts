import { expect, test } from 'vitest';
import { formatTaskTable } from '../../../scripts/demo/task-table';

test('the demo prints the newest run and its tasks as an aligned table', () => {
  const actual = formatTaskTable({
    runs: [
      { id: 'run-2', status: 'completed', title: 'Mara reaches the lighthouse', createdAt: 2 },
      { id: 'run-1', status: 'failed', createdAt: 1 },
    ],
    tasks: [
      { runId: 'run-1', workspaceKey: 'scene-critic', status: 'failed', task: { title: 'Old' } },
      { runId: 'run-2', workspaceKey: 'continuity-checker', status: 'completed', resultStatus: 'completed', task: { title: 'Check' }, usage: { rounds: 1, toolCalls: 0 } },
      { runId: 'run-2', workspaceKey: 'scene-critic', status: 'completed', resultStatus: 'partial', task: { title: 'Critique' }, usage: { rounds: 2, toolCalls: 3 } },
    ],
  });
  expect(actual).toBe(
    [
      'Run run-2 — completed — Mara reaches the lighthouse',
      'task                status     result     title     used',
      '------------------  ---------  ---------  --------  ----------------------',
      'continuity-checker  completed  completed  Check     1 round, 0 tool calls',
      'scene-critic        completed  partial    Critique  2 rounds, 3 tool calls',
    ].join('\n'),
  );
});

test('with no run recorded the demo says why the table is empty', () => {
  expect(formatTaskTable({ runs: [], tasks: [] })).toMatch(/no run was recorded/);
});
