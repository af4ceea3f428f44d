import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { INTERRUPTED_AFTER_REPLY_ERROR, INTERRUPTED_ERROR, markRunInterrupted } from '../../../src/background/interrupted-runs';
import { pageAnswerForRun } from '../../../src/background/page-error-text';
import { createRunClaims } from '../../../src/background/run-claims';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { buildInvocation, buildRun, buildTask, uniqueDatabaseName } from '../../support/record-builders';

let store: RunStore;
beforeEach(async () => {
  store = await openRunStore({ name: uniqueDatabaseName() });
});
afterEach(() => store.close());

describe('markRunInterrupted', () => {
  test('a run that had replied (helpers working after it, or one taken up again between turns) says its reply stands', async () => {
    const run = buildRun({ status: 'running', rootInvocationId: 'root', repliedAt: 3_000, reopenedAt: 4_000 });
    await store.putRun(run);
    await store.putInvocation(buildInvocation({ id: 'root', status: 'completed' }));
    await store.putInvocation(buildInvocation({ id: 'critic-child', kind: 'subagent', parentInvocationId: 'root', status: 'running' }));
    await store.putTask(buildTask({ id: 'critic', workspaceKey: 'scene-critic', childInvocationId: 'critic-child', status: 'running' }));

    const ended = await markRunInterrupted(store, run, 5_000);

    expect(ended).toMatchObject({ status: 'interrupted', repliedAt: 3_000, error: INTERRUPTED_AFTER_REPLY_ERROR });
    expect(ended.error?.message).toContain('The reply stands');
    expect((await store.listTasks(run.id))[0]).toMatchObject({ status: 'cancelled', error: INTERRUPTED_AFTER_REPLY_ERROR });
    expect(INTERRUPTED_ERROR.message).toContain('send the message again');
  });

  test('keeps every finished result, cancels what never finished, and ends the run interrupted with its usage', async () => {
    const run = buildRun({ status: 'running', rootInvocationId: 'root' });
    await store.putRun(run);
    await store.putInvocation(buildInvocation({ id: 'root', status: 'running', usage: { rounds: 2, toolCalls: 3, promptTokens: 100, completionTokens: 20, totalTokens: 120 } }));
    const child = (id: string, status: 'running' | 'completed' | 'created') =>
      buildInvocation({ id, kind: 'subagent', parentInvocationId: 'root', status, usage: { rounds: 1, toolCalls: 0, promptTokens: 10, completionTokens: 5, totalTokens: 15 } });
    await store.putInvocation(child('done-child', 'completed'));
    await store.putInvocation(child('handed-over-child', 'running'));
    await store.putInvocation(child('working-child', 'running'));
    await store.putInvocation(child('queued-child', 'created'));
    await store.putTask(buildTask({ id: 'done', workspaceKey: 'critic', childInvocationId: 'done-child', status: 'completed', resultRef: 'agent-results/done-child.json' }));
    // Its result was written just before the restart; only the records after it were lost.
    await store.putTask(buildTask({ id: 'handed-over', workspaceKey: 'checker', childInvocationId: 'handed-over-child', status: 'running', resultRef: 'agent-results/handed-over-child.json', resultStatus: 'partial' }));
    await store.putTask(buildTask({ id: 'working', workspaceKey: 'critic-002', childInvocationId: 'working-child', status: 'running' }));
    await store.putTask(buildTask({ id: 'queued', workspaceKey: 'critic-003', childInvocationId: 'queued-child', status: 'queued' }));
    for (const path of ['agent-results/done-child.json', 'agent-results/handed-over-child.json', 'summaries/agents/critic/result.md']) {
      await store.writeFile({ runId: run.id, path, content: `result at ${path}`, updatedAt: 1_000 });
    }

    const ended = await markRunInterrupted(store, run, 5_000);

    expect(ended).toMatchObject({ status: 'interrupted', endedAt: 5_000, error: { code: 'interrupted' } });
    expect(ended.usage).toMatchObject({ rounds: 6, toolCalls: 3, promptTokens: 140, completionTokens: 40, totalTokens: 180 });
    expect(await store.getRun(run.id)).toEqual(ended);
    const tasks = await store.listTasks(run.id);
    expect(tasks.map((task) => [task.id, task.status, task.resultStatus, task.error?.code])).toEqual([
      ['done', 'completed', undefined, undefined],
      ['handed-over', 'completed', 'partial', undefined],
      ['working', 'cancelled', undefined, 'interrupted'],
      ['queued', 'cancelled', undefined, 'interrupted'],
    ]);
    const invocations = await store.listInvocations(run.id);
    expect(invocations.map((invocation) => [invocation.id, invocation.status])).toEqual([
      ['root', 'cancelled'],
      ['done-child', 'completed'],
      ['handed-over-child', 'completed'],
      ['working-child', 'cancelled'],
      ['queued-child', 'cancelled'],
    ]);
    expect((await store.listFiles(run.id)).map((file) => file.path)).toEqual([
      'agent-results/done-child.json',
      'agent-results/handed-over-child.json',
      'summaries/agents/critic/result.md',
    ]);
    const journal = await store.readJournal(run.id);
    expect(journal.filter((event) => event.type === 'task-end').map((event) => event.taskId)).toEqual(['handed-over', 'working', 'queued']);
    expect(journal.at(-1)).toMatchObject({ type: 'run-end', data: { status: 'interrupted', error: { code: 'interrupted' } } });
  });
});

describe('createRunClaims', () => {
  test('a run being resumed cannot be interrupted, and an interrupted run cannot be resumed', () => {
    const claims = createRunClaims();
    const resumed = claims.claimForResume('a');
    const interruptWhileResuming = claims.claimForInterrupt('a');
    const interrupted = claims.claimForInterrupt('b');
    const resumeAfterInterrupt = claims.claimForResume('b');
    expect({ resumed, interruptWhileResuming, interrupted, resumeAfterInterrupt }).toEqual({
      resumed: true,
      interruptWhileResuming: false,
      interrupted: true,
      resumeAfterInterrupt: false,
    });
  });

  test('a resume that ended (or failed) lets the run be interrupted; a second resume keeps it held', () => {
    const claims = createRunClaims();
    claims.claimForResume('a');
    claims.claimForResume('a');
    claims.releaseResume('a');
    const whileOneResumeHolds = claims.claimForInterrupt('a');
    claims.releaseResume('a');
    expect([whileOneResumeHolds, claims.claimForInterrupt('a')]).toEqual([false, true]);
  });
});

test('a page that reconnects to a run an earlier start-up interrupted is told in words, with a status it shows as an error', () => {
  const answer = pageAnswerForRun(buildRun({ status: 'interrupted', error: { ...INTERRUPTED_ERROR } }));
  expect(answer).toEqual({ status: 503, message: expect.stringContaining('Retinue was restarted while writing this reply') });
});
