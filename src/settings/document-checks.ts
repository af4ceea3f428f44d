import { builtInProfileIds } from '../profiles/built-in-profiles';
import type { AgentProfile, Settings } from './schema';
import { issueAt, type SettingsIssue } from './settings-errors';

/**
 * Checks what a schema cannot: ids unique inside the document, and every reference (a profile's
 * connection, allowed agents, root profiles) pointing at something that exists.
 */
export function checkSettingsReferences(settings: Settings): SettingsIssue[] {
  const issues: SettingsIssue[] = [
    ...findDuplicates(settings.connections.map((connection) => connection.id), 'connections', 'id', 'connection'),
    ...findDuplicates(settings.profiles.map((profile) => profile.id), 'profiles', 'id', 'profile'),
    ...findDuplicates(settings.sites.map((site) => site.origin.toLowerCase()), 'sites', 'origin', 'site'),
  ];
  const connectionIds = settings.connections.map((connection) => connection.id);
  const agentIds = knownAgentIds(settings);
  settings.profiles.forEach((profile, index) => {
    issues.push(...checkProfileReferences(profile, { connectionIds, agentIds, path: ['profiles', index] }));
  });
  settings.sites.forEach((site, index) => {
    if (site.rootProfileId !== undefined && !agentIds.includes(site.rootProfileId)) {
      issues.push(unknownProfileIssue(['sites', index, 'rootProfileId'], site.rootProfileId, agentIds));
    }
  });
  if (!agentIds.includes(settings.defaults.rootProfileId)) {
    issues.push(unknownProfileIssue(['defaults', 'rootProfileId'], settings.defaults.rootProfileId, agentIds));
  }
  return issues;
}

/** Built-in profile ids and the document's own, without repeats. */
export function knownAgentIds(settings: Pick<Settings, 'profiles'>): string[] {
  return [...new Set([...builtInProfileIds, ...settings.profiles.map((profile) => profile.id)])];
}

/** Checks one profile's references against the connections and agents that exist. */
export function checkProfileReferences(
  profile: AgentProfile,
  context: { connectionIds: readonly string[]; agentIds: readonly string[]; path: readonly PropertyKey[] },
): SettingsIssue[] {
  const issues: SettingsIssue[] = [];
  if (profile.model.binding === 'connection' && !context.connectionIds.includes(profile.model.connectionId)) {
    const choices = context.connectionIds.length > 0 ? `one of ${quoteList(context.connectionIds)}` : 'a connection you add under "connections" first';
    issues.push(
      issueAt(
        [...context.path, 'model', 'connectionId'],
        `names the connection ${JSON.stringify(profile.model.connectionId)}, which is not in "connections"; add that connection or use ${choices} (or the binding "host" for the page's own model).`,
      ),
    );
  }
  profile.delegation.allowedAgents?.forEach((agentId, index) => {
    if (!context.agentIds.includes(agentId)) {
      issues.push(
        issueAt(
          [...context.path, 'delegation', 'allowedAgents', index],
          `names the agent ${JSON.stringify(agentId)}, which is neither a built-in agent nor in "profiles"; remove it or use one of ${quoteList(context.agentIds)}.`,
        ),
      );
    }
  });
  return issues;
}

function unknownProfileIssue(path: readonly PropertyKey[], profileId: string, agentIds: readonly string[]): SettingsIssue {
  return issueAt(path, `names the profile ${JSON.stringify(profileId)}, which is neither a built-in agent nor in "profiles"; use one of ${quoteList(agentIds)}.`);
}

function findDuplicates(values: readonly string[], listName: string, fieldName: string, noun: string): SettingsIssue[] {
  const firstIndex = new Map<string, number>();
  const issues: SettingsIssue[] = [];
  values.forEach((value, index) => {
    const earlier = firstIndex.get(value);
    if (earlier === undefined) {
      firstIndex.set(value, index);
      return;
    }
    issues.push(
      issueAt(
        [listName, index, fieldName],
        `${JSON.stringify(value)} is already used by ${listName}[${earlier}]; each ${noun} needs its own ${fieldName}, so rename one or merge the two.`,
      ),
    );
  });
  return issues;
}

function quoteList(values: readonly string[]): string {
  return values.map((value) => JSON.stringify(value)).join(', ');
}
