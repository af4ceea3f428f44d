import { expect } from 'vitest';
import { sceneCriticProfile } from '../../src/profiles/built-in/scene-critic';
import type { AgentProfileInput } from '../../src/settings/schema';
import { messageText, type ScriptedModelServer, type ScriptedRequest, type ScriptedTurn } from '../support/scripted-model-server';
import { scenarioSettings } from './chat-turn-scenarios';
import type { EvaluatingHandle } from './support/evaluating-handle';
import { evaluateIn, waitUntil } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { switchSitesOn } from './support/site-setup';

/**
 * A nested run on a fixture page, for Chromium and Firefox alike: the root asks the scene critic,
 * whose profile (the built-in, overridden) allows nested delegation; the critic hands a continuity
 * check on and returns what it learnt; the side panel shows the check under the critique.
 */

export const CHECKER_FINDING = 'Continuity: the keeper lost his lantern, so the tower is dark.';
export const CRITIC_FINDING = `Critique, with the check it asked for: ${CHECKER_FINDING}`;

const nestedCritic: AgentProfileInput = {
  ...sceneCriticProfile,
  tools: { allow: [...sceneCriticProfile.tools.allow, 'agent.list', 'agent.delegate', 'agent.await', 'agent.cancel'] },
  delegation: { canDelegate: true, callable: true, allowNestedDelegation: true, allowedAgents: ['continuity-checker'] },
};

/** Switches the primary site on with the scene critic allowed to delegate once more. */
export async function switchOnNestedSite(options: EvaluatingHandle, fixtures: FixtureServer, model: ScriptedModelServer): Promise<void> {
  await switchSitesOn(options, [fixtures.origins.primary], { ...scenarioSettings(fixtures, model), profiles: [nestedCritic] });
}

function toolsCalled(request: ScriptedRequest): string[] {
  return request.body.messages.flatMap((message) =>
    message.role === 'assistant' && message.tool_calls ? message.tool_calls.flatMap((call) => (call.type === 'function' ? [call.function.name] : [])) : [],
  );
}

function toolResults(request: ScriptedRequest): string {
  return request.body.messages.filter((message) => message.role === 'tool').map((message) => messageText(message)).join('\n');
}

/** Delegates `task` on the first turn, awaits it on the second, then `finish`es with what came back. */
function delegator(request: ScriptedRequest, agentId: string, title: string, finish: (results: string) => ScriptedTurn): ScriptedTurn {
  const called = toolsCalled(request);
  if (!called.includes('agent_delegate')) return { toolCalls: [{ name: 'agent_delegate', arguments: { agentId, task: { title, objective: `${title}.` } } }] };
  if (!called.includes('agent_await')) return { toolCalls: [{ name: 'agent_await', arguments: {} }] };
  return finish(toolResults(request));
}

/** Scripts root → scene critic → continuity checker, each told apart by its prompt and tools. */
export function scriptNestedRun(model: ScriptedModelServer): void {
  model.reset();
  model.script((request) => {
    if (!request.toolNames.includes('task_return') || !request.systemText.includes('You are a continuity checker')) return undefined;
    return { toolCalls: [{ name: 'task_return', arguments: { summary: CHECKER_FINDING, status: 'completed' } }] };
  });
  model.script((request) => {
    if (!request.toolNames.includes('task_return') || !request.systemText.includes('You are a scene critic')) return undefined;
    return delegator(request, 'continuity-checker', 'Check the lighthouse', (results) => ({
      toolCalls: [{ name: 'task_return', arguments: { summary: results.includes(CHECKER_FINDING) ? CRITIC_FINDING : 'No check came back.', status: 'completed' } }],
    }));
  });
  model.script((request) => {
    if (!request.toolNames.includes('agent_delegate') || request.toolNames.includes('task_return')) return undefined;
    return delegator(request, 'scene-critic', 'Critique the lighthouse scene', (results) => ({
      content: results.includes(CRITIC_FINDING) ? `The tower stands dark. (${CRITIC_FINDING})` : 'The tower stands.',
    }));
  });
}

/** Runs one nested chat turn on a loaded fixture page and checks the reply carries the grandchild's finding. */
export async function runNestedTurn(page: EvaluatingHandle, model: ScriptedModelServer): Promise<void> {
  scriptNestedRun(model);
  await waitForFixtureReady(page);
  const turn = await sendFixtureMessage(page, 'Mara reaches the lighthouse.');
  expect(turn.status).toBe('done');
  expect(turn.reply).toContain(CHECKER_FINDING);
}

/** The task tree as the side panel shows it: each item's agent, status and the items of its own list. */
export interface ShownBranch {
  agent: string | undefined;
  status: string | null;
  listLabel: string | null;
  children: ShownBranch[];
}

/** Waits for the panel to show two completed tasks and reads its tree from the DOM's nested lists. */
export async function readShownTaskTree(panel: EvaluatingHandle): Promise<ShownBranch[]> {
  return waitUntil(
    async () => {
      const tree = await evaluateIn<ShownBranch[], undefined>(panel, () => {
        interface Branch { agent: string | undefined; status: string | null; listLabel: string | null; children: Branch[] }
        const read = (list: Element): Branch[] =>
          Array.from(list.children)
            .filter((item) => item.matches('li.task-row'))
            .map((item) => {
              const sublist = item.querySelector(':scope > ul');
              return {
                agent: item.querySelector('.task-agent')?.textContent ?? undefined,
                status: item.getAttribute('data-status'),
                listLabel: sublist?.getAttribute('aria-label') ?? null,
                children: sublist ? read(sublist) : [],
              };
            });
        const top = document.querySelector('.task-list > ul');
        return top ? read(top) : [];
      }, undefined);
      const statuses = JSON.stringify(tree).match(/"status":"completed"/g) ?? [];
      return statuses.length === 2 ? tree : undefined;
    },
    { description: 'the nested task tree with both tasks completed', timeoutMs: 20_000 },
  );
}

export const expectedTree: ShownBranch[] = [
  {
    agent: 'scene-critic',
    status: 'completed',
    listLabel: 'Tasks scene-critic handed on',
    children: [{ agent: 'continuity-checker', status: 'completed', listLabel: null, children: [] }],
  },
];
