import fc from 'fast-check';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { afterAll, beforeAll, expect, test } from 'vitest';
import type { ScriptedRequest } from '../../support/scripted-model-server';
import { delegate, isChecker, isCritic, isRoot, startHarness, testProfiles, type Harness } from './runtime-harness';

/**
 * A grandchild's workspace through the whole runtime: the root keeps private notes and gives a
 * task to a cousin (a continuity checker) and one to the scene critic, which hands a deep check to
 * another continuity checker. That grandchild throws generated paths at its tools; what it reads
 * must come from its own folders, its parent's notes (as `summaries/parent/`), and nothing above.
 */
let harness: Harness;
beforeAll(async () => {
  harness = await startHarness({
    profiles: testProfiles({
      critic: {
        tools: { allow: ['agent.list', 'agent.delegate', 'agent.await', 'agent.cancel', 'workspace.list', 'workspace.read', 'workspace.write'] },
        delegation: { canDelegate: true, allowNestedDelegation: true },
      },
      checker: { budget: { maxRounds: 4, maxToolCalls: 80 } },
    }),
  });
});
afterAll(async () => {
  await harness.close();
});

const GRANDCHILD_FOLDERS = ['summaries/agents/continuity-checker-002/', 'scratch/agents/continuity-checker-002/'];
const HIDDEN = ['ROOT-PRIVATE', 'COUSIN-NOTES'];
// Physical folders, with their slash: a file the grandchild itself names `agents` in its scratch is no leak.
const PHYSICAL = ['summaries/agents/continuity-checker-002', 'summaries/agents/scene-critic', 'scratch/agents/', 'agent-results'];

const segment = fc.constantFrom('summaries', 'scratch', 'parent', 'agents', 'scene-critic', 'continuity-checker', 'continuity-checker-002', 'critic.md', 'cousin.md', 'plan.md', 'result.md', '..', '.', '', 'input', 'output', '%2e%2e', 'a\\b');
const prefix = fc.constantFrom('', 'summaries/', 'scratch/', 'summaries/parent/', 'summaries/agents/', 'summaries/parent/../', 'summaries/parent/../../', 'summaries/agents/scene-critic/', 'summaries/agents/continuity-checker/', '/summaries/', 'output/');
const attackPath = fc.tuple(prefix, fc.array(segment, { maxLength: 3 })).map(([start, names]) => `${start}${names.join('/')}`);
/** A path with its '.' and empty segments dropped, as a workspace view reads it ('..' is left: it must never reach further). */
const readAs = (path: string): string => `${path.split('/').filter((name) => name !== '.' && name !== '').join('/')}/`;
const attack = fc.record({ tool: fc.constantFrom('workspace_list', 'workspace_read', 'workspace_write'), path: attackPath });

const briefed = (title: string) => (request: ScriptedRequest) => isChecker(request) && request.allText.includes(`${title}, please.`);

function toolCallsFor(attacks: readonly { tool: string; path: string }[]) {
  const probes = [
    { name: 'workspace_list', arguments: { path: 'summaries/parent/' } },
    { name: 'workspace_read', arguments: { path: 'summaries/parent/critic.md' } },
    { name: 'workspace_list', arguments: { path: 'summaries/agents/' } },
  ];
  const generated = attacks.map(({ tool, path }) => ({ name: tool, arguments: tool === 'workspace_write' ? { path, content: 'grandchild note' } : { path } }));
  return [...probes, ...generated];
}

function toolResults(request: ScriptedRequest | undefined): string[] {
  const messages = (request?.body.messages ?? []) as ChatCompletionMessageParam[];
  return messages.filter((message) => message.role === 'tool').map((message) => String(message.content));
}

function scriptRun(attacks: readonly { tool: string; path: string }[]): void {
  harness.server.queue(
    isRoot,
    { toolCalls: [{ name: 'workspace_write', arguments: { path: 'summaries/plan.md', content: 'ROOT-PRIVATE plan' } }, delegate('continuity-checker', 'Cousin work')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { toolCalls: [delegate('scene-critic', 'Critique')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Done.' },
  );
  harness.queueLater(briefed('Cousin work'), {
    toolCalls: [{ name: 'workspace_write', arguments: { path: 'summaries/cousin.md', content: 'COUSIN-NOTES' } }, { name: 'task_return', arguments: { summary: 'Cousin done.' } }],
  });
  harness.server.queue(
    isCritic,
    { toolCalls: [{ name: 'workspace_write', arguments: { path: 'summaries/critic.md', content: 'PARENT-NOTES' } }, delegate('continuity-checker', 'Deep check')] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { toolCalls: [{ name: 'task_return', arguments: { summary: 'Critic done.' } }] },
  );
  harness.queueLater(briefed('Deep check'), { toolCalls: toolCallsFor(attacks) }, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Deep done.' } }] });
}

test('a grandchild reads its parent’s notes as summaries/parent/, and no generated path reaches above or beside it', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(attack, { minLength: 10, maxLength: 30 }), async (attacks) => {
      harness.server.reset();
      scriptRun(attacks);

      const actual = await harness.start();

      expect(actual.reply).toBe('Done.');
      const deep = harness.server.requests.filter(briefed('Deep check'));
      const results = toolResults(deep[1]);
      expect(results).toHaveLength(3 + attacks.length);
      expect(results[0]).toContain('summaries/parent/critic.md');
      expect(results[1]).toContain('PARENT-NOTES');
      expect(results[2]).not.toContain('continuity-checker');
      for (const [index, result] of results.entries()) {
        const written = index < 3 ? '' : (attacks[index - 3]?.path ?? '');
        for (const secret of HIDDEN) expect(result, `answer to ${JSON.stringify(written)}`).not.toContain(secret);
        // The answer names the path as the view reads it ('scratch/./agents' is its own 'scratch/agents'), and a
        // listing names the files the grandchild wrote before (its own 'scratch/agents/summaries'): only a marker
        // none of those paths has is a leak.
        const ownPaths = [written, ...attacks.slice(0, Math.max(0, index - 3)).filter((earlier) => earlier.tool === 'workspace_write').map((earlier) => earlier.path)];
        const named = (marker: string) => ownPaths.some((path) => path.includes(marker) || readAs(path).includes(marker));
        for (const marker of PHYSICAL) if (!named(marker)) expect(result, `answer to ${JSON.stringify(written)}`).not.toContain(marker);
      }
      const files = await harness.store.listFiles(actual.run.id);
      const grandchildWrites = files.filter((file) => file.content === 'grandchild note').map((file) => file.path);
      for (const path of grandchildWrites) expect(GRANDCHILD_FOLDERS.some((folder) => path.startsWith(folder)), `wrote ${path}`).toBe(true);
      expect(files.find((file) => file.path === 'summaries/plan.md')?.content).toBe('ROOT-PRIVATE plan');
      expect(files.find((file) => file.path === 'summaries/agents/scene-critic/critic.md')?.content).toBe('PARENT-NOTES');
    }),
    { numRuns: 4 },
  );
}, 60_000);
