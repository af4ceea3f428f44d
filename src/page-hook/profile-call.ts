import type { HostCallTemplate } from '../hosts/host-call-template';
import { SAMPLING_FIELDS } from '../model/sampling-sources';
import { profileCallFields, type ProfileRefusal } from '../hosts/sillytavern/connection-profiles';
import { profileCallSampling, type ProfileRanWith } from '../hosts/sillytavern/profile-preset';

export type ProfileCall =
  | { ok: true; template: HostCallTemplate; body: Record<string, unknown>; ranWith?: ProfileRanWith }
  | { ok: false; refusal: ProfileRefusal; source?: string; preset?: string };

/**
 * The page's own template and the call's body, or (for a call on a SillyTavern connection profile)
 * the same endpoint and headers with the profile's fields as the template's body, and the call's
 * sampling made of the profile's completion preset with the agent's own fields on top, filtered by
 * the profile's source: the page's source, URL and sampling do not leak into it. MAIN-world code.
 */
export function profileCall(target: Window, pageTemplate: HostCallTemplate, profileName: string | undefined, body: Record<string, unknown>): ProfileCall {
  if (profileName === undefined) return { ok: true, template: pageTemplate, body };
  const profile = profileCallFields(target, profileName);
  if (!profile.ok) return profile;
  const { sampling, dropped } = profileCallSampling(profile.preset?.settings, body, profile.source);
  const callBody: Record<string, unknown> = { ...body };
  for (const field of SAMPLING_FIELDS) delete callBody[field];
  const ranWith: ProfileRanWith = {
    ...(profile.model ? { model: profile.model } : {}),
    ...(profile.preset ? { preset: profile.preset.name } : {}),
    sampling,
    dropped,
  };
  return { ok: true, template: { ...pageTemplate, body: profile.fields }, body: { ...callBody, ...sampling }, ranWith };
}
