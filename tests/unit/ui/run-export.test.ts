import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { buildCapsulesMarkdown, buildRunExport } from '../../../src/ui/side-panel/run-export';
import { buildInvocation, buildRun, buildTask, uniqueDatabaseName } from '../../support/record-builders';

const capsule = {
  taskId: 'task-1', workspaceKey: 'scene-critic', agentId: 'scene-critic', title: 'Critique',
  status: 'partial', summary: 'The ending drags.', findings: ['Cut the last paragraph.'], warnings: ['Ran out of rounds.'],
  suggestedNextActions: [], questionsForCaller: ['Keep the storm?'], artifacts: [{ path: 'summaries/notes.md', kind: 'notes' }],
  confidence: 'medium', createdAt: 5,
};

describe('run export', () => {
  let store: RunStore;

  beforeEach(async () => {
    store = await openRunStore({ name: uniqueDatabaseName() });
    await store.putRun(buildRun({ title: 'The lighthouse turn' }));
    await store.putInvocation(buildInvocation());
    await store.putTask(buildTask({ status: 'completed', resultStatus: 'partial', resultRef: 'agent-results/invocation-2.json' }));
    await store.putTask(buildTask({ id: 'task-2', childInvocationId: 'invocation-3', workspaceKey: 'researcher', status: 'failed', task: { title: 'Research', objective: 'o' } }));
    await store.writeFile({ runId: 'run-1', path: 'agent-results/invocation-2.json', content: JSON.stringify(capsule), updatedAt: 5 });
    await store.appendJournal({ runId: 'run-1', type: 'run-start' });
    await store.appendJournal({ runId: 'run-1', type: 'task-end', taskId: 'task-1' });
  });
  afterEach(() => store.close());

  it('exports the run with its invocations, tasks, capsules and journal as one JSON document', async () => {
    const exported = await buildRunExport(store, 'run-1');

    expect(exported).toMatchObject({ format: 'retinue-run', version: 1, run: { id: 'run-1', title: 'The lighthouse turn' } });
    expect(exported.invocations.map((invocation) => invocation.id)).toEqual(['invocation-1']);
    expect(exported.tasks.map((task) => task.id)).toEqual(['task-1', 'task-2']);
    expect(exported.capsules).toEqual([capsule]);
    expect(exported.journal.map((event) => event.type)).toEqual(['run-start', 'task-end']);
    expect(JSON.parse(JSON.stringify(exported))).toEqual(exported);
  });

  it('writes the capsules as one Markdown document, naming tasks without a result', async () => {
    const markdown = await buildCapsulesMarkdown(store, 'run-1');

    expect(markdown).toContain('# The lighthouse turn');
    expect(markdown).toContain('## Critique — scene-critic (partial, confidence medium)');
    expect(markdown).toContain('### Findings\n\n- Cut the last paragraph.');
    expect(markdown).toContain('### Questions for the caller\n\n- Keep the storm?');
    expect(markdown).toContain('`summaries/notes.md` (notes)');
    expect(markdown).toContain('## Research — researcher (failed)\n\n_No result._');
  });
});
