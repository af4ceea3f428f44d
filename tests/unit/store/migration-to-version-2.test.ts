import { openDB } from 'idb';
import { expect, test } from 'vitest';
import type { AgentInvocation } from '../../../src/records/invocation';
import type { WorkspaceFile } from '../../../src/records/workspace-file';
import { openRunStore } from '../../../src/store/idb-run-store';
import { RUN_STORE_VERSION } from '../../../src/store/schema';
import { buildInvocation, buildRun, buildTask, uniqueDatabaseName } from '../../support/record-builders';
import { writeVersion1Database } from '../../support/version-1-database';

const chat = Array.from({ length: 40 }, (_, index) => ({ role: index % 2 === 0 ? ('user' as const) : ('assistant' as const), content: `Line ${index} of the chat.` }));
const snapshotFile: WorkspaceFile = { runId: 'done', path: 'input/prompt-snapshot.json', content: JSON.stringify({ messages: chat }), updatedAt: 1 };

function roundOf(callId: string): AgentInvocation['messages'] {
  return [
    { role: 'assistant', content: null, tool_calls: [{ id: callId, type: 'function', function: { name: 'workspace_list', arguments: '{}' } }] },
    { role: 'tool', tool_call_id: callId, content: 'scratch/' },
  ];
}

/** Two runs as version 1 kept them: one finished (with a child and its capsule), one still running. */
const version1 = {
  runs: [buildRun({ id: 'done', status: 'completed', reply: 'The end.', createdAt: 1_000 }), buildRun({ id: 'working', status: 'running', createdAt: 2_000 })],
  invocations: [
    buildInvocation({ id: 'done-root', runId: 'done', status: 'completed', messages: [{ role: 'system', content: 'Narrate.' }, ...chat, ...roundOf('c1'), { role: 'assistant', content: 'The end.' }] }),
    buildInvocation({ id: 'done-child', runId: 'done', kind: 'subagent', parentInvocationId: 'done-root', depth: 1, status: 'completed', messages: [{ role: 'user', content: 'Check it.' }, ...roundOf('c2')] }),
    buildInvocation({ id: 'working-root', runId: 'working', messages: [...chat, ...roundOf('c3')] }),
    buildInvocation({ id: 'working-child', runId: 'working', kind: 'subagent', parentInvocationId: 'working-root', depth: 1, messages: [] }),
  ],
  tasks: [
    buildTask({ id: 'done-task', runId: 'done', parentInvocationId: 'done-root', childInvocationId: 'done-child', status: 'completed', resultRef: 'agent-results/done-child.json' }),
    buildTask({ id: 'working-task', runId: 'working', parentInvocationId: 'working-root', childInvocationId: 'working-child', status: 'running', startedAt: 2_100 }),
  ],
  files: [
    snapshotFile,
    { runId: 'done', path: 'agent-results/done-child.json', content: '{"status":"completed","summary":"Fine."}', updatedAt: 2 },
    { runId: 'done', path: 'summaries/agents/scene-critic/result.md', content: '# Fine.', updatedAt: 2 },
  ],
  journal: [
    { runId: 'done', seq: 1, time: 1_000, type: 'run-start' as const, data: {} },
    { runId: 'done', seq: 2, time: 1_500, type: 'run-end' as const, data: {} },
    { runId: 'working', seq: 1, time: 2_000, type: 'run-start' as const, data: {} },
  ],
};

test('a version-1 database opens with the same runs, tasks, histories, capsules and journal', async () => {
  const name = uniqueDatabaseName();
  await writeVersion1Database(indexedDB, name, version1);

  const store = await openRunStore({ name });
  try {
    expect(await store.listRuns()).toEqual([...version1.runs].reverse());
    expect(await store.listInvocations('done')).toEqual(version1.invocations.slice(0, 2));
    expect(await store.listInvocations('working')).toEqual(version1.invocations.slice(2));
    for (const invocation of version1.invocations) expect(await store.getInvocation(invocation.id)).toEqual(invocation);
    expect([...(await store.listTasks('done')), ...(await store.listTasks('working'))]).toEqual(version1.tasks);
    expect(await store.listFiles('done')).toEqual([...version1.files].sort((left, right) => left.path.localeCompare(right.path)));
    expect([...(await store.readJournal('done')), ...(await store.readJournal('working'))]).toEqual(version1.journal);
  } finally {
    store.close();
  }
});

test('after the upgrade a history is stored one record per message, and the running run goes on appending', async () => {
  const name = uniqueDatabaseName();
  await writeVersion1Database(indexedDB, name, version1);
  const store = await openRunStore({ name });
  const root = version1.invocations[2] as AgentInvocation;
  const next = { ...root, messages: [...root.messages, ...roundOf('c4')] };
  await store.putInvocation(next);
  expect(await store.getInvocation(root.id)).toEqual(next);
  await store.deleteRun('done');
  store.close();

  const database = await openDB(name, RUN_STORE_VERSION);
  try {
    const stored = await database.get('invocations', root.id);
    expect(stored).not.toHaveProperty('messages');
    expect(stored).toMatchObject({ messageCount: next.messages.length });
    const messages = await database.getAll('messages');
    // The finished run's messages went with it; the running root's are each stored once.
    expect(messages.map((record: { invocationId: string; seq: number }) => `${record.invocationId}:${record.seq}`)).toEqual(next.messages.map((_, seq) => `working-root:${seq}`));
  } finally {
    database.close();
  }
});
