import { lazyList } from '../lazy-schema';
import { profileSchema, type AgentProfile, type Settings } from '../settings/schema';
import { answerReviewerProfile } from './built-in/answer-reviewer';
import { continuityCheckerProfile } from './built-in/continuity-checker';
import { researcherProfile } from './built-in/researcher';
import { rootProfile } from './built-in/root';
import { sceneCriticProfile } from './built-in/scene-critic';
import { styleAdvisorProfile } from './built-in/style-advisor';

const builtInSources = [
  rootProfile,
  continuityCheckerProfile,
  sceneCriticProfile,
  styleAdvisorProfile,
  researcherProfile,
  answerReviewerProfile,
];

/**
 * The profiles that ship with Retinue, in the order agents and the options page list them. They live
 * in code, not in the settings document; a document profile with the same id overrides one. Parsed
 * on first use, so a worker start does not build the profile schema (docs/performance.md).
 */
export const builtInProfiles: readonly AgentProfile[] = lazyList(() => builtInSources.map((profile) => Object.freeze(profileSchema.parse(profile))));

/** The ids of the built-in profiles. */
export const builtInProfileIds: readonly string[] = builtInSources.map((profile) => profile.id);

/** Whether a profile id belongs to a built-in (so a document profile with it is an override). */
export function isBuiltInProfileId(profileId: string): boolean {
  return builtInProfileIds.includes(profileId);
}

/**
 * Every profile in effect: the built-ins, each replaced by the document profile of the same id, then
 * the document's own profiles in document order.
 *
 * @example
 * const profiles = resolveProfiles(settings);
 * const root = profiles.find((profile) => profile.id === 'root');
 */
export function resolveProfiles(settings: Pick<Settings, 'profiles'>): AgentProfile[] {
  const documentProfiles = new Map(settings.profiles.map((profile) => [profile.id, profile]));
  const merged = builtInProfiles.map((builtIn) => documentProfiles.get(builtIn.id) ?? builtIn);
  const added = settings.profiles.filter((profile) => !isBuiltInProfileId(profile.id));
  return [...merged, ...added];
}
