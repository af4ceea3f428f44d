import { hostCallBody, hostCallTemplateBody } from '../hosts/host-call-template';
import { profileCallFields, type ProfileRefusal } from '../hosts/sillytavern/connection-profiles';
import type { TavernProfilesState } from '../hosts/sillytavern/page-state';
import { profileCallSampling, type ProfileRanWith } from '../hosts/sillytavern/profile-preset';
import { SAMPLING_FIELDS } from '../model/sampling-sources';

export type HostCallPlan = { ok: true; body: Record<string, unknown>; ranWith?: ProfileRanWith } | { ok: false; refusal: ProfileRefusal; source?: string; preset?: string };

/**
 * The whole body of one host call, which the page hook sends with the page's endpoint and headers:
 * the page's chat-turn body with the call's on top, or (for a call on a SillyTavern connection
 * profile, read from the page's `state`) the profile's fields with the call's on top, and the call's
 * sampling made of the profile's completion preset with the agent's own fields on top, filtered by
 * the profile's source: the page's source, URL and sampling do not leak into it.
 */
export function planHostCall(pageBody: Record<string, unknown>, callBody: Record<string, unknown>, profile?: { name: string; state: TavernProfilesState }): HostCallPlan {
  if (!profile) return { ok: true, body: hostCallBody(hostCallTemplateBody(pageBody), callBody) };
  const fields = profileCallFields(profile.state, profile.name);
  if (!fields.ok) return fields;
  const { sampling, dropped } = profileCallSampling(fields.preset?.settings, callBody, fields.source);
  const ownBody: Record<string, unknown> = { ...callBody };
  for (const field of SAMPLING_FIELDS) delete ownBody[field];
  const ranWith: ProfileRanWith = {
    ...(fields.model ? { model: fields.model } : {}),
    ...(fields.preset ? { preset: fields.preset.name } : {}),
    sampling,
    dropped,
  };
  return { ok: true, body: hostCallBody(fields.fields, { ...ownBody, ...sampling }), ranWith };
}
