import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ModelBehaviorError } from '../../../src/errors';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { createChildWorkspaceView } from '../../../src/workspace/child-view';
import { RunWorkspace } from '../../../src/workspace/run-workspace';
import { uniqueDatabaseName } from '../../support/record-builders';
import { agentWrote } from '../../support/workspace-fixture';

/**
 * The view one level down (nested delegation): `checker` was given its task by `critic`, which the
 * root gave its own. `peer` works for `critic` too; `cousin` is another task of the root's.
 */
const KEY = 'checker';
const PARENT = 'critic';
const PEER = 'peer';
const OWN_FOLDERS = [`summaries/agents/${KEY}/`, `scratch/agents/${KEY}/`];
/** Text of files the grandchild must never read: above its parent, beside its parent, or scratch of others. */
const HIDDEN = ['ROOT-PRIVATE', 'COUSIN-NOTES', 'PARENT-SCRATCH', 'COUSIN-SCRATCH', 'AUDIT'];
const PHYSICAL_MARKERS = [`summaries/agents/${KEY}`, `summaries/agents/${PARENT}`, 'scratch/agents/', 'agent-results'];

const SEED_FILES: Record<string, string> = {
  'input/prompt-snapshot.json': '{}',
  'output/reply.md': 'ROOT-PRIVATE reply',
  'summaries/plan.md': 'ROOT-PRIVATE plan',
  'summaries/deep/plan.md': 'ROOT-PRIVATE deep plan',
  [`summaries/agents/${PARENT}/notes.md`]: 'PARENT-NOTES',
  [`scratch/agents/${PARENT}/tmp.md`]: 'PARENT-SCRATCH',
  [`summaries/agents/${PEER}/result.md`]: 'PEER-NOTES',
  'summaries/agents/cousin/result.md': 'COUSIN-NOTES',
  'scratch/agents/cousin/tmp.md': 'COUSIN-SCRATCH',
  'agent-results/invocation-9.json': 'AUDIT',
  [`summaries/agents/${KEY}/own.md`]: 'OWN-NOTES',
};

const segment = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      'summaries', 'scratch', 'parent', 'agents', KEY, PARENT, PEER, 'cousin', 'deep', 'result.md', 'notes.md', 'plan.md', 'tmp.md',
      '..', '.', '', 'input', 'output', 'agent-results', 'a\\b', ' x', 'x\u0000', '~', 'C:', '%2e%2e', '\u202e',
    ),
    weight: 4,
  },
  { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
);
// Starts that reach each row and alias of the view one level down, and the ways out of it.
const prefix = fc.constantFrom(
  '', 'summaries/', 'scratch/', 'summaries/parent/', 'summaries/agents/', `summaries/agents/${KEY}/`, `summaries/agents/${PARENT}/`,
  `summaries/agents/${PEER}/`, 'summaries/agents/cousin/', 'summaries/parent/agents/', 'summaries/parent/../', 'summaries/parent/parent/',
  'summaries/parent/../../', './summaries/parent/', 'scratch/../summaries/', '/summaries/', 'scratch/agents/', 'agent-results/',
);
const virtualPath = fc.oneof(
  {
    arbitrary: fc
      .tuple(prefix, fc.array(segment, { maxLength: 4 }), fc.boolean())
      .map(([start, names, trailingSlash]) => `${start}${names.join('/')}${trailingSlash ? '/' : ''}`),
    weight: 4,
  },
  { arbitrary: fc.string({ maxLength: 40 }), weight: 1 },
);
const operation = fc.record({
  kind: fc.constantFrom('list', 'read', 'write', 'append'),
  path: virtualPath,
  content: fc.string({ maxLength: 20 }),
});

let store: RunStore;
let runCounter = 0;
beforeAll(async () => {
  store = await openRunStore({ name: uniqueDatabaseName() });
});
afterAll(() => store.close());

async function grandchildView() {
  runCounter += 1;
  const workspace = new RunWorkspace({ store, runId: `grandchild-run-${runCounter}` });
  for (const [path, content] of Object.entries(SEED_FILES)) await workspace.write(path, content);
  const view = createChildWorkspaceView({ workspace, workspaceKey: KEY, parentKey: PARENT, visibleAgents: () => new Set([PEER]) });
  return { workspace, view };
}

test('no path a grandchild writes lands outside its own summaries/ and scratch/ folders', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (operations) => {
      const { workspace, view } = await grandchildView();
      for (const { path, content, kind } of operations) {
        if (kind === 'list' || kind === 'read') continue;
        await view.write(path, content, kind === 'append' ? 'append' : 'replace').catch((error: unknown) => {
          expect(error).toBeInstanceOf(ModelBehaviorError);
        });
      }
      for (const file of await workspace.list()) {
        const seeded = SEED_FILES[file.path];
        if (seeded !== undefined && !file.path.startsWith(OWN_FOLDERS[0] as string)) expect(file.content, `seed file ${file.path} changed`).toBe(seeded);
        else expect(OWN_FOLDERS.some((folder) => file.path.startsWith(folder)), `wrote ${file.path}`).toBe(true);
      }
    }),
    { numRuns: 120 },
  );
}, 60_000);

test('nothing above its parent, beside its parent or in others’ scratch reaches a grandchild, and no physical path', async () => {
  await fc.assert(
    fc.asyncProperty(operation, async ({ kind, path, content }) => {
      const { view } = await grandchildView();
      let shown: string;
      try {
        const answer =
          kind === 'list' ? await view.list(path) : kind === 'read' ? await view.read(path) : await view.write(path, content, kind === 'append' ? 'append' : 'replace');
        shown = JSON.stringify(answer);
      } catch (error) {
        expect(error).toBeInstanceOf(ModelBehaviorError);
        shown = (error as Error).message;
      }
      // A text the grandchild wrote itself may come back, as written or tidied ("scratch/./agents/" as "scratch/agents/").
      const why = `shown for ${JSON.stringify(path)}`;
      for (const secret of HIDDEN) if (!agentWrote(path, secret) && !content.includes(secret)) expect(shown, why).not.toContain(secret);
      for (const marker of PHYSICAL_MARKERS) if (!agentWrote(path, marker)) expect(shown, why).not.toContain(marker);
      for (const name of ['cousin', 'plan.md', 'deep/']) if (!agentWrote(path, name.replace('/', ''))) expect(shown, why).not.toContain(name);
    }),
    { numRuns: 300 },
  );
}, 60_000);

test('the parent’s notes are summaries/parent/, peers are under summaries/agents/, and the parent’s own folder there points back', async () => {
  const { view } = await grandchildView();

  expect(await view.read('summaries/parent/notes.md')).toMatchObject({ content: 'PARENT-NOTES' });
  expect(await view.list('summaries/parent/')).toEqual([{ path: 'summaries/parent/notes.md', kind: 'file', size: 'PARENT-NOTES'.length }]);
  expect(await view.list('summaries/agents/')).toEqual([{ path: `summaries/agents/${PEER}/`, kind: 'folder' }]);
  expect(await view.read(`summaries/agents/${PEER}/result.md`)).toMatchObject({ content: 'PEER-NOTES' });
  await expect(view.read(`summaries/agents/${PARENT}/notes.md`)).rejects.toThrow('use "summaries/parent/notes.md" instead');
  await expect(view.read('summaries/agents/cousin/result.md')).rejects.toThrow('There is no "summaries/agents/cousin/result.md" in your workspace.');
  await expect(view.read('summaries/parent/plan.md')).rejects.toThrow('There is no file "summaries/parent/plan.md"');
  await expect(view.write('summaries/parent/notes.md', 'x')).rejects.toThrow('is read-only');
});
