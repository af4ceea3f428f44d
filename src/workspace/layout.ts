import { HostContractError } from '../errors';
import { normalizeWorkspacePath } from './paths';

/**
 * The physical layout of a run's workspace (DESIGN.md section 6). Agents never see these paths
 * directly: the root and child views map what they write onto them.
 */
export const INPUT_FOLDER = 'input/';
export const OUTPUT_FOLDER = 'output/';
export const SUMMARIES_FOLDER = 'summaries/';
export const SCRATCH_FOLDER = 'scratch/';
/** Structured capsules for audit and the UI; hidden from agents because the names carry runtime ids. */
export const AGENT_RESULTS_FOLDER = 'agent-results/';

/** The page's request as the run started from it. */
export const PROMPT_SNAPSHOT_PATH = 'input/prompt-snapshot.json';

/** Refuses a name that cannot be a single path segment (it would escape or confuse the layout). */
function assertSingleName(name: string, what: string): void {
  let valid: boolean;
  try {
    const normalized = normalizeWorkspacePath(name);
    valid = !normalized.isFolder && normalized.segments.length === 1 && normalized.segments[0] === name;
  } catch {
    valid = false;
  }
  if (!valid) {
    throw new HostContractError('workspace-name-invalid', `The ${what} ${JSON.stringify(name)} cannot be a folder name in the workspace.`);
  }
}

/** Throws a HostContractError unless the workspace key is usable as one folder name. */
export function assertWorkspaceKey(workspaceKey: string): void {
  assertSingleName(workspaceKey, 'workspace key');
}

/** `agent-results/<child-invocation-id>.json`: the structured capsule of a finished task. */
export function agentResultPath(childInvocationId: string): string {
  assertSingleName(`${childInvocationId}.json`, 'invocation id');
  return `${AGENT_RESULTS_FOLDER}${childInvocationId}.json`;
}

/** `summaries/agents/<key>/`: a child's own notes, its `summaries/`. */
export function childSummariesFolder(workspaceKey: string): string {
  assertWorkspaceKey(workspaceKey);
  return `${SUMMARIES_FOLDER}agents/${workspaceKey}/`;
}

/** `scratch/agents/<key>/`: a child's `scratch/`. */
export function childScratchFolder(workspaceKey: string): string {
  assertWorkspaceKey(workspaceKey);
  return `${SCRATCH_FOLDER}agents/${workspaceKey}/`;
}

/** `summaries/agents/<key>/result.md`: the markdown capsule other agents read; written by `task.return`. */
export function childResultPath(workspaceKey: string): string {
  return `${childSummariesFolder(workspaceKey)}result.md`;
}

/** Every agent's memory for the run's conversation: `memory/<agent-id>/`, an agent's `memory/` (docs/agent-memory.md). */
export const MEMORY_FOLDER = 'memory/';

/** `memory/<agent-id>/`: the memory folder of the agent with this profile id. */
export function agentMemoryFolder(agentId: string): string {
  assertSingleName(agentId, 'agent id');
  return `${MEMORY_FOLDER}${agentId}/`;
}
