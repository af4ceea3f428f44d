import { expect, test } from 'vitest';
import type { AgentInvocation } from '../../../src/records/invocation';
import type { AgentTaskRecord } from '../../../src/records/task';
import { formatTaskTable, type RunnerReport } from '../../../src/runner/runner-report';

const usage = (rounds: number, toolCalls: number, totalTokens: number) => ({ rounds, toolCalls, promptTokens: 0, completionTokens: 0, totalTokens });

test('the table lists the root, then each task by name, with partial results marked', () => {
  const task = (workspaceKey: string, extra: Partial<AgentTaskRecord>): AgentTaskRecord => ({
    id: `task-${workspaceKey}`,
    runId: 'run-1',
    parentInvocationId: 'root-1',
    childInvocationId: `child-${workspaceKey}`,
    targetProfileId: 'scene-critic',
    workspaceKey,
    continuation: 'returnToParent',
    status: 'completed',
    task: { title: 'Critique', objective: 'Critique it.' },
    budget: { maxRounds: 6, maxToolCalls: 10 },
    createdAt: 1_000,
    usage: usage(2, 3, 400),
    ...extra,
  });
  const report: RunnerReport = {
    run: { id: 'run-1', origin: 'runner:', adapter: 'runner', title: 't', status: 'completed', rootInvocationId: 'root-1', createdAt: 1_000, endedAt: 5_500, usage: usage(4, 5, 1_000) },
    reply: 'Reply.',
    invocations: [{ id: 'root-1', profileId: 'root', usage: usage(4, 5, 1_000) } as AgentInvocation],
    tasks: [
      task('scene-critic', { startedAt: 1_200, endedAt: 3_700 }),
      task('scene-critic-002', { startedAt: 1_300, endedAt: 2_300, resultStatus: 'partial' }),
      task('scene-critic-003', { status: 'cancelled', usage: usage(0, 0, 0) }),
    ],
    capsules: [],
    journal: [],
  };

  const actual = formatTaskTable(report, 9_000);

  expect(actual.split('\n')).toEqual([
    'agent                            status               rounds  tool calls  tokens  seconds',
    '-------------------------------  -------------------  ------  ----------  ------  -------',
    'root                             completed                 4           5    1000      4.5',
    'scene-critic                     completed                 2           3     400      2.5',
    'scene-critic-002 (scene-critic)  completed (partial)       2           3     400      1.0',
    'scene-critic-003 (scene-critic)  cancelled                 0           0       0        -',
  ]);
});
