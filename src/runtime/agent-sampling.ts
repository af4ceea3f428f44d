import type { PromptSnapshot } from '../hosts/prompt-snapshot';
import type { CallSampling } from '../model/model-client';
import { OPENAI_COMPATIBLE, splitSampling, type SamplingField } from '../model/sampling-sources';
import type { AgentProfile } from '../settings/schema';

/** The sampling one agent's calls carry, and the fields of its own preset its source does not take. */
export interface AgentSampling {
  sampling: CallSampling;
  /** Fields of the agent's `sampling` left out because the call's source does not take them. */
  dropped: SamplingField[];
}

/** Where a binding's calls go, for what they may carry; undefined: the page decides (a connection profile). */
function sourceOf(snapshot: PromptSnapshot, profile: AgentProfile): string | undefined {
  const binding = profile.model.binding;
  if (binding === 'connection') return OPENAI_COMPATIBLE;
  if (binding === 'hostProfile') return undefined;
  // SillyTavern's body names its source; an OpenAI-style page is OpenAI-compatible.
  const source = (snapshot as { chat_completion_source?: unknown }).chat_completion_source;
  return typeof source === 'string' && source !== '' ? source : OPENAI_COMPATIBLE;
}

/**
 * Sampling from the prompt snapshot with the agent's own preset on top, filtered by what the call's
 * source takes. The page's `max_tokens` was set for the page's own model, so it applies to the page's
 * connection only: a page cannot spend the user's keyed connections by asking for huge answers. A
 * `hostProfile` agent carries none of the page's sampling: the page hook puts the profile's completion
 * preset under the agent's own fields and filters them by the profile's source.
 */
export function agentSampling(snapshot: PromptSnapshot, profile: AgentProfile): AgentSampling {
  const own = profile.model.sampling ?? {};
  const source = sourceOf(snapshot, profile);
  if (source === undefined) return { sampling: withoutUndefined({ ...own }), dropped: [] };
  const { kept, dropped } = splitSampling(own, source);
  const fromSnapshot: CallSampling = {
    temperature: snapshot.temperature,
    top_p: snapshot.top_p,
    max_tokens: profile.model.binding === 'host' ? snapshot.max_tokens : undefined,
    presence_penalty: snapshot.presence_penalty,
    frequency_penalty: snapshot.frequency_penalty,
    stop: snapshot.stop,
  };
  return { sampling: withoutUndefined({ ...fromSnapshot, ...(kept as CallSampling) }), dropped };
}

function withoutUndefined(sampling: CallSampling): CallSampling {
  return Object.fromEntries(Object.entries(sampling).filter(([, value]) => value !== undefined)) as CallSampling;
}
