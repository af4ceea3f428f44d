import fc from 'fast-check';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { ModelBehaviorError } from '../../../src/errors';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { createChildWorkspaceView } from '../../../src/workspace/child-view';
import { createRootWorkspaceView } from '../../../src/workspace/root-view';
import { RunWorkspace } from '../../../src/workspace/run-workspace';
import { uniqueDatabaseName } from '../../support/record-builders';
import { agentWrote } from '../../support/workspace-fixture';

const KEY = 'scene-critic';
const OWN_FOLDERS = [`summaries/agents/${KEY}/`, `scratch/agents/${KEY}/`];
/** Physical names no model-facing error may show unless the model itself wrote them. */
const PHYSICAL_MARKERS = [`summaries/agents/${KEY}`, 'scratch/agents/', 'agent-results'];

const SEED_FILES: Record<string, string> = {
  'input/prompt-snapshot.json': '{}',
  'output/reply.md': 'reply',
  'summaries/plan.md': 'plan',
  'summaries/agents/researcher/result.md': 'research',
  'scratch/agents/researcher/tmp.md': 'tmp',
  'agent-results/invocation-9.json': '{}',
  [`summaries/agents/${KEY}/result.md`]: 'result',
};

// Names an attacker would try, mixed with arbitrary text.
const segment = fc.oneof(
  {
    arbitrary: fc.constantFrom(
      'summaries', 'scratch', 'parent', 'agents', KEY, 'researcher', 'result.md', 'notes.md', 'plan.md',
      '..', '.', '', 'input', 'output', 'agent-results', 'a\\b', ' x', 'x\u0000', '~', 'C:', '%2e%2e', '\u202e',
    ),
    weight: 4,
  },
  { arbitrary: fc.string({ maxLength: 8 }), weight: 1 },
);
// Starts that reach each row and alias of the view, so the tails probe every mapping.
const prefix = fc.constantFrom(
  '', 'summaries/', 'scratch/', 'summaries/parent/', 'summaries/agents/', `summaries/agents/${KEY}/`,
  'summaries/parent/agents/', 'summaries/agents/researcher/', './summaries/', 'summaries/./parent/',
  'scratch/../', 'summaries/parent/../', '/summaries/', 'input/', 'agent-results/', 'scratch/agents/',
);
const virtualPath = fc.oneof(
  {
    arbitrary: fc
      .tuple(prefix, fc.array(segment, { maxLength: 4 }), fc.boolean())
      .map(([start, names, trailingSlash]) => `${start}${names.join('/')}${trailingSlash ? '/' : ''}`),
    weight: 4,
  },
  {
    arbitrary: fc
      .tuple(fc.boolean(), fc.array(segment, { maxLength: 7 }), fc.boolean())
      .map(([leadingSlash, names, trailingSlash]) => `${leadingSlash ? '/' : ''}${names.join('/')}${trailingSlash ? '/' : ''}`),
    weight: 2,
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

async function seededWorkspace(): Promise<RunWorkspace> {
  runCounter += 1;
  const workspace = new RunWorkspace({ store, runId: `property-run-${runCounter}` });
  for (const [path, content] of Object.entries(SEED_FILES)) await workspace.write(path, content);
  return workspace;
}

/**
 * A marker counts as leaked only if the child wrote it neither as given nor in the tidied form an
 * answer echoes back ("scratch/./agents/" is shown as the child's own "scratch/agents/").
 */
function expectNoPhysicalLeak(text: string, written: string): void {
  for (const marker of PHYSICAL_MARKERS) {
    if (!agentWrote(written, marker)) expect(text, `shown for ${JSON.stringify(written)}`).not.toContain(marker);
  }
}

test('no path a child writes lands outside its own summaries/ and scratch/ folders', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (operations) => {
      const workspace = await seededWorkspace();
      const child = createChildWorkspaceView({ workspace, workspaceKey: KEY });
      for (const { path, content, kind } of operations) {
        if (kind === 'write' || kind === 'append') {
          await child.write(path, content, kind === 'append' ? 'append' : 'replace').catch((error: unknown) => {
            expect(error).toBeInstanceOf(ModelBehaviorError);
          });
        }
      }
      for (const file of await workspace.list()) {
        const seeded = SEED_FILES[file.path];
        if (seeded !== undefined) {
          expect(file.content, `seed file ${file.path} changed`).toBe(seeded);
        } else {
          expect(OWN_FOLDERS.some((folder) => file.path.startsWith(folder)), `wrote ${file.path}`).toBe(true);
        }
      }
    }),
    { numRuns: 120 },
  );
}, 60_000);

test('no answer or error a child gets shows a physical path it did not write itself', async () => {
  await fc.assert(
    fc.asyncProperty(operation, async ({ kind, path, content }) => {
      const workspace = await seededWorkspace();
      const child = createChildWorkspaceView({ workspace, workspaceKey: KEY });
      try {
        const answer =
          kind === 'list'
            ? await child.list(path)
            : kind === 'read'
              ? await child.read(path)
              : await child.write(path, content, kind === 'append' ? 'append' : 'replace');
        expectNoPhysicalLeak(JSON.stringify(answer), path);
      } catch (error) {
        expect(error).toBeInstanceOf(ModelBehaviorError);
        expectNoPhysicalLeak((error as Error).message, path);
      }
    }),
    { numRuns: 300 },
  );
}, 60_000);

test('the root never writes into input/, agent-results/ or a delegated agent’s folders', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 8 }), async (operations) => {
      const workspace = await seededWorkspace();
      const root = createRootWorkspaceView(workspace, { agentId: 'root' });
      for (const { path, content, kind } of operations) {
        if (kind === 'list' || kind === 'read') continue;
        await root.write(path, content, kind === 'append' ? 'append' : 'replace').catch((error: unknown) => {
          expect(error).toBeInstanceOf(ModelBehaviorError);
          expect((error as Error).message).not.toContain('invocation-9');
        });
      }
      for (const file of await workspace.list()) {
        if (SEED_FILES[file.path] !== undefined) continue;
        expect(/^(output|scratch|summaries)\//.test(file.path), `wrote ${file.path}`).toBe(true);
        expect(/^(summaries|scratch)\/agents(\/|$)/.test(file.path), `wrote ${file.path}`).toBe(false);
      }
    }),
    { numRuns: 80 },
  );
}, 60_000);
