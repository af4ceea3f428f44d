import { SAMPLING_FIELDS, type SamplingField } from '../../model/sampling-sources';
import { knownAgentIds, checkProfileReferences } from '../../settings/document-checks';
import { profileSchema, type AgentProfile, type Settings } from '../../settings/schema';
import { issuesFromZod, type SettingsIssue } from '../../settings/settings-errors';
import type { AllowableToolName } from '../../settings/tool-names';

/** A profile as the form holds it: text for every input, so half-typed numbers survive. */
export interface ProfileDraft {
  id: string;
  name: string;
  description: string;
  systemPrompt: string;
  binding: 'host' | 'hostProfile' | 'connection';
  connectionId: string;
  /** The SillyTavern connection profile's name (the `hostProfile` binding). */
  profileName: string;
  model: string;
  /** The agent's own sampling, each field as typed (empty: not set). */
  sampling: SamplingDraft;
  tools: AllowableToolName[];
  canDelegate: boolean;
  callable: boolean;
  allowNestedDelegation: boolean;
  /** Comma-separated agent ids; empty means every callable agent. */
  allowedAgents: string;
  maxRounds: string;
  maxToolCalls: string;
  /** Seconds; empty means no own timeout. */
  timeoutSeconds: string;
  /** The root's token limit per run; empty means the default's. */
  maxRunTokens: string;
  recentChatMessages: string;
  /** `ask`: the user reviews each result before the caller gets it. */
  review: AgentProfile['review'];
  /** When it runs, as the profile writes it (`every 3 turns`, ...); see profile-runs-field.tsx. */
  runs: string;
}

const text = (value: number | undefined) => (value === undefined ? '' : String(value));

/** Every sampling field as the form holds it. */
export type SamplingDraft = Record<SamplingField, string>;

/** A sampling object (a profile's, or a SillyTavern preset's) as draft text. */
export function samplingDraftOf(sampling: Partial<Record<SamplingField, number | string>> | undefined): SamplingDraft {
  return Object.fromEntries(SAMPLING_FIELDS.map((field) => [field, sampling?.[field] === undefined ? '' : String(sampling[field])])) as SamplingDraft;
}

export function draftFromProfile(profile: AgentProfile): ProfileDraft {
  const sampling = profile.model.sampling;
  return {
    id: profile.id,
    name: profile.name,
    description: profile.description,
    systemPrompt: profile.systemPrompt,
    binding: profile.model.binding,
    connectionId: profile.model.binding === 'connection' ? profile.model.connectionId : '',
    profileName: profile.model.binding === 'hostProfile' ? profile.model.profileName : '',
    model: profile.model.binding === 'hostProfile' ? '' : (profile.model.model ?? ''),
    sampling: samplingDraftOf(sampling),
    tools: [...profile.tools.allow],
    canDelegate: profile.delegation.canDelegate,
    callable: profile.delegation.callable,
    allowNestedDelegation: profile.delegation.allowNestedDelegation,
    allowedAgents: profile.delegation.allowedAgents?.join(', ') ?? '',
    maxRounds: text(profile.budget.maxRounds),
    maxToolCalls: text(profile.budget.maxToolCalls),
    timeoutSeconds: profile.budget.timeoutMs === undefined ? '' : String(profile.budget.timeoutMs / 1_000),
    maxRunTokens: text(profile.budget.maxRunTokens),
    recentChatMessages: text(profile.context.recentChatMessages),
    review: profile.review,
    runs: profile.runs,
  };
}

/** Empty text is "not set"; anything else is a number (NaN, which the schema refuses by name, if not). */
function optionalNumber(value: string): number | undefined {
  return value.trim() === '' ? undefined : Number(value);
}

/** The draft as a profile document (what the schema checks). */
export function profileInputFromDraft(draft: ProfileDraft): Record<string, unknown> {
  // reasoning_effort is a word; every other field a number.
  const sampling = Object.fromEntries(
    SAMPLING_FIELDS.flatMap((field) => {
      const typed = draft.sampling[field].trim();
      if (typed === '') return [];
      return [[field, field === 'reasoning_effort' ? typed : Number(typed)]];
    }),
  );
  const samplingPart = Object.keys(sampling).length > 0 ? { sampling } : {};
  const timeoutSeconds = optionalNumber(draft.timeoutSeconds);
  const maxRunTokens = optionalNumber(draft.maxRunTokens);
  const allowedAgents = draft.allowedAgents.split(/[\s,]+/).filter(Boolean);
  return {
    id: draft.id.trim(),
    name: draft.name,
    description: draft.description,
    systemPrompt: draft.systemPrompt,
    model:
      draft.binding === 'host'
        ? { binding: 'host', ...(draft.model.trim() ? { model: draft.model.trim() } : {}), ...samplingPart }
        : draft.binding === 'hostProfile'
        ? { binding: 'hostProfile', profileName: draft.profileName.trim(), ...samplingPart }
        : { binding: 'connection', connectionId: draft.connectionId, ...(draft.model.trim() ? { model: draft.model.trim() } : {}), ...samplingPart },
    tools: { allow: draft.tools },
    delegation: {
      canDelegate: draft.canDelegate,
      callable: draft.callable,
      allowNestedDelegation: draft.allowNestedDelegation,
      ...(allowedAgents.length > 0 ? { allowedAgents } : {}),
    },
    budget: {
      maxRounds: optionalNumber(draft.maxRounds),
      maxToolCalls: optionalNumber(draft.maxToolCalls),
      ...(timeoutSeconds === undefined ? {} : { timeoutMs: Math.round(timeoutSeconds * 1_000) }),
      ...(maxRunTokens === undefined ? {} : { maxRunTokens }),
    },
    context: { recentChatMessages: optionalNumber(draft.recentChatMessages) },
    review: draft.review,
    runs: draft.runs,
  };
}

/** Field paths in errors, mapped from the document's to the form's (timeouts are in seconds there). */
function formPath(path: string): string {
  return path === 'budget.timeoutMs' ? 'budget.timeoutSeconds' : path;
}

export type DraftCheck = { ok: true; profile: AgentProfile } | { ok: false; errors: SettingsIssue[] };

/** Validates a draft with the settings schema and against the connections and agents that exist. */
export function checkProfileDraft(draft: ProfileDraft, settings: Settings): DraftCheck {
  const input = profileInputFromDraft(draft);
  const parsed = profileSchema.safeParse(input);
  if (!parsed.success) {
    const errors = issuesFromZod(parsed.error.issues, { input, schema: profileSchema });
    return { ok: false, errors: errors.map((issue) => ({ ...issue, path: formPath(issue.path) })) };
  }
  const references = checkProfileReferences(parsed.data, {
    connectionIds: settings.connections.map((connection) => connection.id),
    agentIds: [...knownAgentIds(settings), parsed.data.id],
    path: [],
  });
  if (references.length > 0) return { ok: false, errors: references };
  return { ok: true, profile: parsed.data };
}

/** The settings with `profile` stored in place of `previousId` (or added). */
export function withProfile(settings: Settings, profile: AgentProfile, previousId: string | undefined): Settings {
  const exists = previousId !== undefined && settings.profiles.some((entry) => entry.id === previousId);
  const profiles = exists ? settings.profiles.map((entry) => (entry.id === previousId ? profile : entry)) : [...settings.profiles, profile];
  return { ...settings, profiles };
}
