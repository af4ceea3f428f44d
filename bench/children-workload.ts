/**
 * The children's workload both children benches run (`runtime` (a) in Node, `browser-children` in
 * Chromium): a root delegates 6 tasks to a bench worker that writes two notes and returns, awaits
 * them all and answers; every model call is answered after 200 ms.
 */
import type { AgentProfileInput } from '../src/settings/schema';
import type { ScriptedModelServer, ScriptedRequest } from '../tests/support/scripted-model-server';

export const CHILDREN = 6;
export const CHILD_ROUNDS = 3;
export const CALL_DELAY_MS = 200;
export const ROOT_REPLY = 'All parts are in.';
const WORKER_MARKER = '[[bench-worker]]';

export const benchWorkerProfile: AgentProfileInput = {
  id: 'bench-worker',
  name: 'Bench worker',
  description: 'Takes notes, then returns. For the benchmark only.',
  systemPrompt: `${WORKER_MARKER} Write two notes, then return.`,
  tools: { allow: ['workspace.write'] },
  budget: { maxRounds: CHILD_ROUNDS + 2, maxToolCalls: 10 },
};

export const isBenchWorker = (request: ScriptedRequest): boolean => request.systemText.includes(WORKER_MARKER);

/** Scripts the worker's rounds and the root's (the root told apart by `isRoot`). */
export function scriptChildrenWorkload(server: ScriptedModelServer, isRoot: (request: ScriptedRequest) => boolean): void {
  server.script((request) => {
    if (isBenchWorker(request)) {
      const round = request.toolResultCount;
      return round < CHILD_ROUNDS - 1
        ? { toolCalls: [{ name: 'workspace_write', arguments: { path: `scratch/note-${round}.md`, content: 'A note.' } }], delayMs: CALL_DELAY_MS }
        : { toolCalls: [{ name: 'task_return', arguments: { summary: 'Done.' } }], delayMs: CALL_DELAY_MS };
    }
    if (!isRoot(request)) return undefined;
    if (request.toolResultCount === 0) {
      const delegations = Array.from({ length: CHILDREN }, (_, index) => ({
        name: 'agent_delegate',
        arguments: { agentId: benchWorkerProfile.id, task: { title: `Part ${index + 1}`, objective: 'Take notes, then return.' } },
      }));
      return { toolCalls: delegations, delayMs: CALL_DELAY_MS };
    }
    if (request.toolResultCount === CHILDREN) return { toolCalls: [{ name: 'agent_await', arguments: { mode: 'allCompleted' } }], delayMs: CALL_DELAY_MS };
    return { content: ROOT_REPLY, delayMs: CALL_DELAY_MS };
  });
}
