import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { HostContractError } from '../../../src/errors';
import type { JournalEvent } from '../../../src/records/journal';
import type { AgentRun } from '../../../src/records/run';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { buildInvocation, buildRun, buildTask, uniqueDatabaseName } from '../../support/record-builders';

let store: RunStore;
beforeEach(async () => {
  store = await openRunStore({ name: uniqueDatabaseName() });
});
afterEach(() => store.close());

describe('runs', () => {
  test('a stored run reads back as it was put, and a later put replaces it', async () => {
    const run = buildRun({ id: 'r1', status: 'running' });
    await store.putRun(run);
    expect(await store.getRun('r1')).toEqual(run);

    const finished = { ...run, status: 'completed' as const, endedAt: 2_000, reply: 'Done.' };
    await store.putRun(finished);
    expect(await store.getRun('r1')).toEqual(finished);
  });

  test('an unknown run reads as undefined', async () => {
    expect(await store.getRun('missing')).toBeUndefined();
  });

  test('runs of an origin come newest first and page with before and limit', async () => {
    const site = 'http://127.0.0.1:8000';
    for (let index = 1; index <= 5; index += 1) {
      await store.putRun(buildRun({ id: `site-${index}`, origin: site, createdAt: index * 100 }));
    }
    await store.putRun(buildRun({ id: 'elsewhere', origin: 'http://localhost:3000', createdAt: 350 }));

    const ids = (runs: AgentRun[]) => runs.map((run) => run.id);
    expect(ids(await store.listRuns({ origin: site }))).toEqual(['site-5', 'site-4', 'site-3', 'site-2', 'site-1']);

    const firstPage = await store.listRuns({ origin: site, limit: 2 });
    expect(ids(firstPage)).toEqual(['site-5', 'site-4']);
    const secondPage = await store.listRuns({ origin: site, limit: 2, before: firstPage.at(-1)?.createdAt });
    expect(ids(secondPage)).toEqual(['site-3', 'site-2']);
    const lastPage = await store.listRuns({ origin: site, limit: 2, before: secondPage.at(-1)?.createdAt });
    expect(ids(lastPage)).toEqual(['site-1']);
  });

  test("an origin's newest run ids come newest first, as many as asked, without another origin's", async () => {
    const site = 'http://127.0.0.1:8000';
    for (const [id, createdAt] of [['middle', 200], ['newest', 300], ['oldest', 100]] as const) await store.putRun(buildRun({ id, origin: site, createdAt }));
    await store.putRun(buildRun({ id: 'elsewhere', origin: 'http://localhost:3000', createdAt: 400 }));

    expect(await store.newestRunIds(site, 1)).toEqual(['newest']);
    expect(await store.newestRunIds(site, 2)).toEqual(['newest', 'middle']);
    expect(await store.newestRunIds(site, 10)).toEqual(['newest', 'middle', 'oldest']);
    expect(await store.newestRunIds(site, 0)).toEqual([]);
    expect(await store.newestRunIds('http://nowhere.test', 2)).toEqual([]);
  });

  test("with a conversation, a limit looks at the origin's newest runs and gives back that conversation's among them", async () => {
    const site = 'http://127.0.0.1:8000';
    const chat = (conversationId: string) => ({ conversationId, historyKey: 'key' });
    await store.putRun(buildRun({ id: 'old-story', origin: site, createdAt: 100, chat: chat('story') }));
    await store.putRun(buildRun({ id: 'other', origin: site, createdAt: 200, chat: chat('other') }));
    await store.putRun(buildRun({ id: 'no-chat', origin: site, createdAt: 300 }));
    await store.putRun(buildRun({ id: 'new-story', origin: site, createdAt: 400, chat: chat('story') }));
    await store.putRun(buildRun({ id: 'story-elsewhere', origin: 'http://localhost:3000', createdAt: 500, chat: chat('story') }));

    const ids = (runs: AgentRun[]) => runs.map((run) => run.id);
    expect(ids(await store.listRuns({ origin: site, conversationId: 'story' }))).toEqual(['new-story', 'old-story']);
    expect(ids(await store.listRuns({ origin: site, limit: 3, conversationId: 'story' }))).toEqual(['new-story']);
    expect(ids(await store.listRuns({ origin: site, conversationId: 'nobody' }))).toEqual([]);
  });

  test('without an origin every run is listed newest first', async () => {
    await store.putRun(buildRun({ id: 'a', origin: 'http://a.test', createdAt: 10 }));
    await store.putRun(buildRun({ id: 'b', origin: 'http://b.test', createdAt: 30 }));
    await store.putRun(buildRun({ id: 'c', origin: 'http://c.test', createdAt: 20 }));

    expect((await store.listRuns()).map((run) => run.id)).toEqual(['b', 'c', 'a']);
    expect((await store.listRuns({ before: 30, limit: 1 })).map((run) => run.id)).toEqual(['c']);
    expect(await store.listRuns({ limit: 0 })).toEqual([]);
  });

  test('a limit keeps the newest runs by count, in the order a newest-first walk gives, ties in one millisecond included', async () => {
    const site = 'http://127.0.0.1:8000';
    const times = [100, 200, 200, 200, 300, 400];
    for (const [index, createdAt] of times.entries()) await store.putRun(buildRun({ id: `run-${index}`, origin: site, createdAt }));
    await store.putRun(buildRun({ id: 'elsewhere', origin: 'http://localhost:3000', createdAt: 250 }));
    const ids = (runs: AgentRun[]) => runs.map((run) => run.id);
    const newestFirst = ['run-5', 'run-4', 'run-3', 'run-2', 'run-1', 'run-0'];

    for (let limit = 1; limit <= 8; limit += 1) {
      expect(ids(await store.listRuns({ origin: site, limit }))).toEqual(newestFirst.slice(0, limit));
    }
    expect(ids(await store.listRuns({ origin: site, limit: 2, before: 300 }))).toEqual(['run-3', 'run-2']);
    expect(ids(await store.listRuns({ limit: 4 }))).toEqual(['run-5', 'run-4', 'elsewhere', 'run-3']);
    expect(await store.listRuns({ origin: 'http://nowhere.test', limit: 3 })).toEqual([]);
  });
});

describe('invocations and tasks', () => {
  test('invocations are stored, read and listed per run', async () => {
    const root = buildInvocation({ id: 'root', runId: 'r1' });
    const child = buildInvocation({ id: 'child', runId: 'r1', kind: 'subagent', parentInvocationId: 'root', depth: 1 });
    await store.putInvocation(root);
    await store.putInvocation(child);
    await store.putInvocation(buildInvocation({ id: 'other', runId: 'r2' }));

    expect(await store.getInvocation('child')).toEqual(child);
    expect(await store.getInvocation('missing')).toBeUndefined();
    expect((await store.listInvocations('r1')).map((invocation) => invocation.id)).toEqual(['root', 'child']);
  });

  test('saving an invocation after a round keeps its new messages', async () => {
    const invocation = buildInvocation({ id: 'root', runId: 'r1' });
    await store.putInvocation(invocation);
    const afterRound = { ...invocation, messages: [...invocation.messages, { role: 'assistant' as const, content: 'Hi' }] };
    await store.putInvocation(afterRound);
    expect((await store.getInvocation('root'))?.messages).toEqual(afterRound.messages);
  });

  test('tasks of a run come in creation order, even with equal timestamps and after updates', async () => {
    for (const id of ['zeta', 'alpha', 'mid']) {
      await store.putTask(buildTask({ id, runId: 'r1', createdAt: 5_000 }));
    }
    await store.putTask(buildTask({ id: 'other-run', runId: 'r2' }));
    // Updating the first task (it finished) must not move it to the end.
    const zeta = await store.getTask('zeta');
    await store.putTask({ ...zeta!, status: 'completed', endedAt: 6_000 });

    const tasks = await store.listTasks('r1');
    expect(tasks.map((task) => task.id)).toEqual(['zeta', 'alpha', 'mid']);
    expect(tasks[0]?.status).toBe('completed');
    expect(await store.getTask('missing')).toBeUndefined();
    expect(await store.listTasks('no-such-run')).toEqual([]);
  });

  test('tasks created concurrently are listed in the order their puts were issued', async () => {
    const ids = Array.from({ length: 10 }, (_, index) => `task-${index}`);
    await Promise.all(ids.map((id) => store.putTask(buildTask({ id, runId: 'r1', createdAt: 1 }))));
    expect((await store.listTasks('r1')).map((task) => task.id)).toEqual(ids);
  });
});

describe('journal', () => {
  test('appends number events from 1 per run and fill in the time', async () => {
    const first = await store.appendJournal({ runId: 'r1', type: 'run-start', time: 100 });
    const second = await store.appendJournal({ runId: 'r1', type: 'task-start', taskId: 't1', data: { key: 'critic' } });
    const otherRun = await store.appendJournal({ runId: 'r2', type: 'run-start' });

    expect(first).toEqual({ runId: 'r1', seq: 1, time: 100, type: 'run-start', data: {} });
    expect(second.seq).toBe(2);
    expect(second.time).toBeTypeOf('number');
    expect(second.data).toEqual({ key: 'critic' });
    expect(otherRun.seq).toBe(1);
  });

  test('concurrent appends get distinct consecutive numbers and read back in order', async () => {
    const appended = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        store.appendJournal({ runId: 'r1', type: 'tool-call-end', data: { index } }),
      ),
    );
    const expectedSeqs = Array.from({ length: 50 }, (_, index) => index + 1);
    expect(appended.map((event) => event.seq).sort((a, b) => a - b)).toEqual(expectedSeqs);

    const read = await store.readJournal('r1');
    expect(read.map((event) => event.seq)).toEqual(expectedSeqs);
    // Each stored event is the one its append returned.
    const bySeq = new Map(appended.map((event) => [event.seq, event]));
    for (const event of read) expect(event).toEqual(bySeq.get(event.seq));
  });

  test("a step's events, of one run or two, are numbered in order after each run's last and stored as numbered", async () => {
    await store.appendJournal({ runId: 'r1', type: 'run-start' });
    await store.appendJournal({ runId: 'r2', type: 'run-start' });
    await store.appendJournal({ runId: 'r2', type: 'model-call-start' });

    const stored = await store.saveStep({
      journal: [
        { runId: 'r1', type: 'model-call-start', data: { order: 1 } },
        { runId: 'r2', type: 'model-call-end', data: { order: 2 } },
        { runId: 'r1', type: 'model-call-end', data: { order: 3 } },
        { runId: 'r1', type: 'tool-call-start', data: { order: 4 } },
      ],
    });

    expect(stored.map((event) => [event.runId, event.seq, event.data])).toEqual([
      ['r1', 2, { order: 1 }],
      ['r2', 3, { order: 2 }],
      ['r1', 3, { order: 3 }],
      ['r1', 4, { order: 4 }],
    ]);
    expect((await store.readJournal('r1')).map((event) => [event.seq, event.type])).toEqual([
      [1, 'run-start'],
      [2, 'model-call-start'],
      [3, 'model-call-end'],
      [4, 'tool-call-start'],
    ]);
    expect((await store.readJournal('r2')).map((event) => event.seq)).toEqual([1, 2, 3]);
  });

  test('reading from a sequence number returns that event and the later ones', async () => {
    for (let index = 0; index < 5; index += 1) await store.appendJournal({ runId: 'r1', type: 'model-call-end' });
    await store.appendJournal({ runId: 'r2', type: 'run-start' });

    expect((await store.readJournal('r1', 4)).map((event) => event.seq)).toEqual([4, 5]);
    expect(await store.readJournal('r1', 6)).toEqual([]);
    expect((await store.readJournal('r1', 0)).length).toBe(5);
    expect(await store.readJournal('unknown')).toEqual([]);
  });

  test('listeners hear every stored event until they unsubscribe', async () => {
    const heard: JournalEvent[] = [];
    const unsubscribe = store.onJournalAppended((event) => heard.push(event));
    const stored = await store.appendJournal({ runId: 'r1', type: 'run-start' });
    expect(heard).toEqual([stored]);

    unsubscribe();
    await store.appendJournal({ runId: 'r1', type: 'run-end' });
    expect(heard).toEqual([stored]);
  });

  test('a listener that throws does not fail the append or silence other listeners', async () => {
    const heard: number[] = [];
    store.onJournalAppended(() => {
      throw new Error('closed port');
    });
    store.onJournalAppended((event) => heard.push(event.seq));
    const originalError = console.error;
    console.error = () => undefined;
    try {
      await expect(store.appendJournal({ runId: 'r1', type: 'run-start' })).resolves.toMatchObject({ seq: 1 });
    } finally {
      console.error = originalError;
    }
    expect(heard).toEqual([1]);
  });
});

describe('files', () => {
  test('files are written, read, listed by prefix in path order, and deleted', async () => {
    const file = (path: string, runId = 'r1') => ({ runId, path, content: `content of ${path}`, updatedAt: 1 });
    for (const path of ['summaries/b.md', 'output/reply.md', 'summaries/a.md', 'summaries/agents/critic/result.md']) {
      await store.writeFile(file(path));
    }
    await store.writeFile(file('summaries/other-run.md', 'r2'));

    expect(await store.readFile('r1', 'summaries/a.md')).toEqual(file('summaries/a.md'));
    expect(await store.readFile('r1', 'summaries/missing.md')).toBeUndefined();
    expect((await store.listFiles('r1', 'summaries/')).map((entry) => entry.path)).toEqual([
      'summaries/a.md',
      'summaries/agents/critic/result.md',
      'summaries/b.md',
    ]);
    expect((await store.listFiles('r1')).length).toBe(4);

    await store.deleteFile('r1', 'summaries/a.md');
    expect(await store.readFile('r1', 'summaries/a.md')).toBeUndefined();
    expect(await store.readFile('r2', 'summaries/other-run.md')).toBeDefined();
  });

  test('a checked write sees the run\'s files but those of the folder left out, and a refusal writes nothing', async () => {
    const file = (path: string, content = 'x') => ({ runId: 'r1', path, content, updatedAt: 1 });
    for (const path of ['input', 'input/prompt-snapshot.json', 'inputs/b.md', 'scratch/a.md']) await store.writeFile(file(path));
    let seen: string[] = [];

    await store.writeFileChecked('r1', { folder: 'input/' }, (files) => {
      seen = files.map((entry) => entry.path);
      return file('scratch/c.md', 'seen');
    });
    const refused = await store.writeFileChecked('r1', undefined, () => {
      throw new HostContractError('no-room', 'No room.');
    }).catch((error: unknown) => error);

    expect(seen).toEqual(['input', 'inputs/b.md', 'scratch/a.md']);
    expect((await store.readFile('r1', 'scratch/c.md'))?.content).toBe('seen');
    expect(refused).toBeInstanceOf(HostContractError);
    expect((await store.listFiles('r1')).map((entry) => entry.path)).toEqual(['input', 'input/prompt-snapshot.json', 'inputs/b.md', 'scratch/a.md', 'scratch/c.md']);
    expect((await store.listFiles('r1', 'input', { folder: 'input/' })).map((entry) => entry.path)).toEqual(['input', 'inputs/b.md']);
  });
});

describe('deleting and pruning runs', () => {
  async function seedRun(run: AgentRun): Promise<void> {
    await store.putRun(run);
    await store.putInvocation(buildInvocation({ id: `${run.id}-root`, runId: run.id }));
    await store.putTask(buildTask({ id: `${run.id}-task`, runId: run.id }));
    await store.writeFile({ runId: run.id, path: 'output/reply.md', content: 'Hi', updatedAt: 1 });
    await store.appendJournal({ runId: run.id, type: 'run-start' });
  }

  async function everythingOf(runId: string) {
    return {
      run: await store.getRun(runId),
      invocations: await store.listInvocations(runId),
      invocation: await store.getInvocation(`${runId}-root`),
      tasks: await store.listTasks(runId),
      task: await store.getTask(`${runId}-task`),
      files: await store.listFiles(runId),
      journal: await store.readJournal(runId),
    };
  }
  const nothing = { run: undefined, invocations: [], invocation: undefined, tasks: [], task: undefined, files: [], journal: [] };

  test('deleteRun removes the run and everything that belongs to it, and nothing else', async () => {
    await seedRun(buildRun({ id: 'gone' }));
    await seedRun(buildRun({ id: 'kept' }));

    await store.deleteRun('gone');

    expect(await everythingOf('gone')).toEqual(nothing);
    const kept = await everythingOf('kept');
    expect(kept.run?.id).toBe('kept');
    expect([kept.invocations.length, kept.tasks.length, kept.files.length, kept.journal.length]).toEqual([1, 1, 1, 1]);
  });

  test('pruneRuns removes finished runs older than the cut-off, never a running one', async () => {
    await seedRun(buildRun({ id: 'old-completed', createdAt: 100, status: 'completed' }));
    await seedRun(buildRun({ id: 'old-failed', createdAt: 200, status: 'failed' }));
    await seedRun(buildRun({ id: 'old-interrupted', createdAt: 250, status: 'interrupted' }));
    await seedRun(buildRun({ id: 'old-running', createdAt: 300, status: 'running' }));
    await seedRun(buildRun({ id: 'at-cutoff', createdAt: 1_000, status: 'completed' }));
    await seedRun(buildRun({ id: 'recent', createdAt: 5_000, status: 'cancelled' }));

    const pruned = await store.pruneRuns(1_000);

    expect(pruned).toBe(3);
    for (const id of ['old-completed', 'old-failed', 'old-interrupted']) expect(await everythingOf(id)).toEqual(nothing);
    const survivors = (await store.listRuns()).map((run) => run.id);
    expect(survivors).toEqual(['recent', 'at-cutoff', 'old-running']);
    expect((await everythingOf('old-running')).journal.length).toBe(1);
    expect(await store.pruneRuns(1_000)).toBe(0);
  });
});

describe('refusals', () => {
  test('a run that does not match its schema is refused with the field named, and not stored', async () => {
    const bad = { ...buildRun({ id: 'bad' }), status: 'exploded' } as unknown as AgentRun;
    const error = await store.putRun(bad).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HostContractError);
    expect((error as HostContractError).code).toBe('store-record-invalid');
    expect((error as HostContractError).message).toContain('status');
    expect(await store.getRun('bad')).toBeUndefined();
  });

  test.each([
    ['invocation', () => store.putInvocation({ ...buildInvocation(), depth: -1 }), 'depth'],
    ['task', () => store.putTask({ ...buildTask(), task: { title: '', objective: 'x' } }), 'task.title'],
    ['file', () => store.writeFile({ runId: 'r1', path: 'a.md', content: 42 as unknown as string, updatedAt: 1 }), 'content'],
    ['journal event', () => store.appendJournal({ runId: 'r1', type: 'made-up' as 'run-start' }), 'type'],
  ])('a bad %s is refused with a HostContractError naming %s', async (_kind, write, field) => {
    const error = await write().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HostContractError);
    expect((error as HostContractError).message).toContain(field);
  });

  test('a refused journal event takes no sequence number', async () => {
    await store.appendJournal({ runId: 'r1', type: 'made-up' as 'run-start' }).catch(() => undefined);
    expect((await store.appendJournal({ runId: 'r1', type: 'run-start' })).seq).toBe(1);
  });

  test('an IndexedDB failure rejects with a HostContractError carrying the cause', async () => {
    store.close();
    const error = await store.getRun('r1').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(HostContractError);
    expect((error as HostContractError).code).toBe('store-failed');
    expect((error as HostContractError).cause).toBeInstanceOf(Error);
  });
});
