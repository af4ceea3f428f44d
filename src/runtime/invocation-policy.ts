import type { ExitPolicy } from '../records/invocation';
import type { AgentProfile } from '../settings/schema';
import { allowableToolNames, type AllowableToolName, type ToolName } from '../settings/tool-names';

const DELEGATION_TOOLS: readonly ToolName[] = ['agent.list', 'agent.delegate', 'agent.await', 'agent.cancel'];
const ROOT_ONLY_TOOLS: readonly ToolName[] = ['workspace.commit', 'workspace.finish'];
/** Tools only a host with lorebooks (SillyTavern) offers. */
export const LORE_TOOLS: readonly ToolName[] = ['lore.list_activated', 'lore.search', 'lore.read', 'lore.propose'];

/** What the run's host offers beyond every host's tools, fixed on the run record (its adapter). */
export interface HostFeatures {
  lorebooks: boolean;
}

/** The host features of a run's adapter: SillyTavern has lorebooks. */
export function hostFeaturesOf(adapter: string): HostFeatures {
  return { lorebooks: adapter === 'sillytavern' };
}

/**
 * What an invocation may do, decided once when it starts: the tool surface stays fixed for its
 * whole loop (DESIGN.md sections 4, 5 and 11).
 */
export interface InvocationPolicy {
  kind: 'root' | 'subagent';
  exitPolicy: ExitPolicy;
  /** Canonical names, in registry order. */
  tools: readonly ToolName[];
  /** Tools the profile lists but this invocation is not offered, and why (told to a model that calls one). */
  withheld?: { tools: readonly ToolName[]; reason: string };
}

function allowed(profile: AgentProfile): Set<AllowableToolName> {
  return new Set(profile.tools.allow);
}

/** The root: its profile's tools; `agent.*` only with `canDelegate`; it may commit or finish the run. */
export function rootPolicy(profile: AgentProfile, host: HostFeatures = { lorebooks: false }): InvocationPolicy {
  const allow = allowed(profile);
  const tools = allowableToolNames.filter((name) => {
    if (!allow.has(name)) return false;
    if (LORE_TOOLS.includes(name)) return host.lorebooks;
    if (DELEGATION_TOOLS.includes(name)) return profile.delegation.canDelegate;
    return true;
  });
  return { kind: 'root', exitPolicy: 'runFinishAllowed', tools };
}

/** Where a child stands in the run's delegation tree: the root is depth 0, its children depth 1. */
export interface ChildPlacement {
  depth: number;
  /** `defaults.maxDepth`: the deepest a delegated task may be. */
  maxDepth: number;
  /** What the run's host offers (absent: no lorebooks). */
  host?: HostFeatures;
}

/** Why a child whose profile allows nested delegation gets no `agent.*` tools at its depth (model-facing). */
export const DEPTH_LIMIT_REFUSAL =
  'You cannot hand work on to other agents: your task is already at the deepest level of delegation this run allows. ' +
  'Do the work yourself with your tools and finish with task_return.';

/**
 * A return-mode child: its profile's tools without `workspace.commit`/`finish`; `agent.*` only when
 * its profile allows nested delegation (with `canDelegate`) and a task it starts would stay within
 * `maxDepth`; `task.return` is injected and must end its work.
 */
export function childPolicy(profile: AgentProfile, placement: ChildPlacement): InvocationPolicy {
  const allow = allowed(profile);
  const nested = profile.delegation.canDelegate && profile.delegation.allowNestedDelegation;
  const mayDelegate = nested && placement.depth < placement.maxDepth;
  const tools: ToolName[] = allowableToolNames.filter((name) => {
    if (!allow.has(name) || ROOT_ONLY_TOOLS.includes(name)) return false;
    if (LORE_TOOLS.includes(name)) return placement.host?.lorebooks === true;
    return DELEGATION_TOOLS.includes(name) ? mayDelegate : true;
  });
  tools.push('task.return');
  const refusesForDepth = nested && !mayDelegate && DELEGATION_TOOLS.some((name) => allow.has(name as AllowableToolName));
  return {
    kind: 'subagent',
    exitPolicy: 'taskReturnRequired',
    tools,
    ...(refusesForDepth ? { withheld: { tools: DELEGATION_TOOLS, reason: DEPTH_LIMIT_REFUSAL } } : {}),
  };
}

/** The agents `caller` may delegate to: callable, allowed by its `allowedAgents`, never itself. */
export function delegableAgents(caller: AgentProfile, profiles: readonly AgentProfile[]): AgentProfile[] {
  if (!caller.delegation.canDelegate) return [];
  const allowedIds = caller.delegation.allowedAgents;
  return profiles.filter(
    (profile) =>
      profile.id !== caller.id && profile.delegation.callable && (allowedIds === undefined || allowedIds.includes(profile.id)),
  );
}
