/**
 * What an import of agent files would do, before anything is saved: per file the id it takes, the
 * profile it would replace (the writer said plainly), the model it runs on and its budgets. An agent
 * file is shared text: its display name can be harmless while its `name:` is `root`, so the user sees
 * the id and the replaced profile and confirms before the options page or the runner keeps it.
 */
import { resolveProfiles } from '../profiles/built-in-profiles';
import type { AgentProfile, Settings } from './schema';

/** What an incoming profile would take the place of. */
export type ReplacedProfile =
  /** Nothing: a new agent. */
  | { kind: 'none' }
  /** An agent (built-in or the user's) of the same id. */
  | { kind: 'agent'; name: string }
  /** The writer: the profile that writes the page's replies (`root`, or a site's or the default root profile). */
  | { kind: 'writer'; name: string };

/** Where an incoming profile's model calls go. */
export type PreviewModel =
  | { binding: 'host'; model?: string }
  | { binding: 'hostProfile'; profileName: string }
  /** A connection of the user's, by its label (never its address); `keyed` when it carries an API key. */
  | { binding: 'connection'; connectionLabel: string; model: string; keyed: boolean };

export interface AgentFilePreviewEntry {
  id: string;
  name: string;
  replaces: ReplacedProfile;
  model: PreviewModel;
  budget: AgentProfile['budget'];
  canDelegate: boolean;
  /** When it runs (`runs`): worth a look, since a helper that runs every turn spends every turn. */
  runs: AgentProfile['runs'];
}

export interface AgentFilesPreview {
  entries: AgentFilePreviewEntry[];
  /** Whether saving needs an explicit confirmation: some entry replaces an agent or the writer. */
  needsConfirmation: boolean;
  /** Whether some entry would replace the writer. */
  replacesWriter: boolean;
}

/** The ids of the profiles that write replies: `root`, the default root profile and each site's. */
export function writerProfileIds(settings: Pick<Settings, 'defaults' | 'sites'>): string[] {
  const ids = ['root', settings.defaults.rootProfileId, ...settings.sites.flatMap((site) => (site.rootProfileId ? [site.rootProfileId] : []))];
  return [...new Set(ids)];
}

/**
 * The preview of importing `incoming` (the profiles `importAgentFiles` read) into `current`.
 *
 * @example
 * const result = importAgentFiles(files, settings);
 * const preview = previewAgentFiles(result.imported, settings);
 * if (!preview.needsConfirmation || userConfirmed) await save(result.settings);
 */
export function previewAgentFiles(incoming: readonly AgentProfile[], current: Settings): AgentFilesPreview {
  const existing = new Map(resolveProfiles(current).map((profile) => [profile.id, profile]));
  const writers = writerProfileIds(current);
  const entries = incoming.map((profile): AgentFilePreviewEntry => {
    const before = existing.get(profile.id);
    const replaces: ReplacedProfile = writers.includes(profile.id)
      ? { kind: 'writer', name: before?.name ?? profile.id }
      : before
        ? { kind: 'agent', name: before.name }
        : { kind: 'none' };
    return {
      id: profile.id,
      name: profile.name,
      replaces,
      model: previewModel(profile, current),
      budget: profile.budget,
      canDelegate: profile.delegation.canDelegate,
      runs: profile.runs,
    };
  });
  return {
    entries,
    needsConfirmation: entries.some((entry) => entry.replaces.kind !== 'none'),
    replacesWriter: entries.some((entry) => entry.replaces.kind === 'writer'),
  };
}

function previewModel(profile: AgentProfile, settings: Settings): PreviewModel {
  const binding = profile.model;
  if (binding.binding === 'host') return binding.model ? { binding: 'host', model: binding.model } : { binding: 'host' };
  if (binding.binding === 'hostProfile') return { binding: 'hostProfile', profileName: binding.profileName };
  const connection = settings.connections.find((candidate) => candidate.id === binding.connectionId);
  return {
    binding: 'connection',
    connectionLabel: connection?.label || binding.connectionId,
    model: binding.model ?? connection?.defaultModel ?? '',
    keyed: (connection?.apiKey ?? '') !== '',
  };
}

/**
 * One entry in plain English lines, for the runner's terminal (the options page renders its own,
 * translated). Text of the file (names, model ids) is passed through as written; the terminal writer
 * strips control characters.
 */
export function describePreviewEntry(entry: AgentFilePreviewEntry): string {
  const replaces =
    entry.replaces.kind === 'writer'
      ? `REPLACES THE WRITER (${entry.replaces.name}), the profile that writes the page's replies`
      : entry.replaces.kind === 'agent'
        ? `replaces the agent ${entry.replaces.name}`
        : 'a new agent';
  const model =
    entry.model.binding === 'host'
      ? `the page's own model${entry.model.model ? ` (${entry.model.model})` : ''}`
      : entry.model.binding === 'hostProfile'
        ? `the page's connection profile ${entry.model.profileName}`
        : `connection ${entry.model.connectionLabel}${entry.model.keyed ? ' (with its API key)' : ''}, model ${entry.model.model}`;
  const budget = [
    `${entry.budget.maxRounds} rounds`,
    `${entry.budget.maxToolCalls} tool calls`,
    ...(entry.budget.timeoutMs !== undefined ? [`${Math.round(entry.budget.timeoutMs / 1000)} s`] : []),
    ...(entry.budget.maxRunTokens !== undefined ? [`${entry.budget.maxRunTokens} tokens a run`] : []),
  ].join(', ');
  return `- ${entry.id} ("${entry.name}"): ${replaces}; runs on ${model}; budget ${budget}${entry.canDelegate ? '; may delegate' : ''}${entry.runs !== 'when asked' ? `; runs ${entry.runs}` : ''}.`;
}
