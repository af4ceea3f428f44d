import type { ScriptedModelServer } from '../../support/scripted-model-server';

export const SCENE_CRITIC_MARKER = 'You are a scene critic';

/**
 * Scripts one delegated run: the root delegates to scene-critic, awaits it, then replies; the critic
 * returns its result at once. Root turns are told apart by how many tool results they have seen.
 */
export function scriptDelegatedRun(server: ScriptedModelServer, reply = 'The lighthouse keeper lifts the lamp.'): void {
  server.queue(SCENE_CRITIC_MARKER, {
    toolCalls: [{ name: 'task_return', arguments: { summary: 'Raise the stakes: the storm should threaten the ship.', findings: ['Stakes are low'], confidence: 'high' } }],
  });
  server.script((request) => {
    if (!request.toolNames.includes('agent_delegate')) return undefined;
    if (request.toolResultCount === 0) {
      return {
        toolCalls: [
          {
            name: 'agent_delegate',
            arguments: { agentId: 'scene-critic', task: { title: 'Critique the storm scene', objective: 'Find the weakest beat.' } },
          },
        ],
      };
    }
    if (request.toolResultCount === 1) return { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['scene-critic'], mode: 'allCompleted' } }] };
    return { content: reply };
  });
}
