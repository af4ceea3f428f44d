import type { ExitPolicy } from '../records/invocation';
import type { AgentProfile } from '../settings/schema';
import { allowableToolNames, type AllowableToolName, type ToolName } from '../settings/tool-names';

const DELEGATION_TOOLS: readonly ToolName[] = ['agent.list', 'agent.delegate', 'agent.await', 'agent.cancel'];
const ROOT_ONLY_TOOLS: readonly ToolName[] = ['workspace.commit', 'workspace.finish'];

/**
 * What an invocation may do, decided once when it starts: the tool surface stays fixed for its
 * whole loop (DESIGN.md sections 4, 5 and 11).
 */
export interface InvocationPolicy {
  kind: 'root' | 'subagent';
  exitPolicy: ExitPolicy;
  /** Canonical names, in registry order. */
  tools: readonly ToolName[];
}

function allowed(profile: AgentProfile): Set<AllowableToolName> {
  return new Set(profile.tools.allow);
}

/** The root: its profile's tools; `agent.*` only with `canDelegate`; it may commit or finish the run. */
export function rootPolicy(profile: AgentProfile): InvocationPolicy {
  const allow = allowed(profile);
  const tools = allowableToolNames.filter((name) => {
    if (!allow.has(name)) return false;
    if (DELEGATION_TOOLS.includes(name)) return profile.delegation.canDelegate;
    return true;
  });
  return { kind: 'root', exitPolicy: 'runFinishAllowed', tools };
}

/**
 * A return-mode child: its profile's tools without `agent.*` (no nested delegation yet) and
 * without `workspace.commit`/`finish`; `task.return` is injected and must end its work.
 */
export function childPolicy(profile: AgentProfile): InvocationPolicy {
  const allow = allowed(profile);
  const tools: ToolName[] = allowableToolNames.filter(
    (name) => allow.has(name) && !DELEGATION_TOOLS.includes(name) && !ROOT_ONLY_TOOLS.includes(name),
  );
  tools.push('task.return');
  return { kind: 'subagent', exitPolicy: 'taskReturnRequired', tools };
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
