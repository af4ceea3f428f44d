import { ConfigurationError } from '../../errors';
import type { ProfileRefusal } from './connection-profiles';

/**
 * The error of a call the page could not run on a SillyTavern connection profile: it names the
 * profile by the name the user gave it (never its id) and says what to do. A configuration error, so
 * the call is not retried: the task fails with this message and the rest of the run goes on.
 */
export function connectionProfileRefusalError(refusal: ProfileRefusal, profileName: string, details: { source?: string; preset?: string } = {}): ConfigurationError {
  const { source, preset } = details;
  const profile = `SillyTavern connection profile “${profileName}”`;
  const messages: Record<ProfileRefusal, string> = {
    'connection-manager-unavailable': `This page has no Connection Manager to run ${profile} (it is not SillyTavern, or its Connection Manager extension is off): switch the extension on in SillyTavern, or bind this agent to the page's model in Retinue's options.`,
    'profile-missing': `SillyTavern has no connection profile named “${profileName}” (any more): create it again in SillyTavern's Connection Manager, or bind this agent to another profile in Retinue's options.`,
    'profile-not-chat-completion': `${profile} is not a Chat Completion profile: Retinue's agents need one (text completion cannot call tools). Pick a Chat Completion profile in Retinue's options.`,
    'profile-source-unsupported': `${profile} uses the source '${source ?? 'unknown'}', whose replies Retinue cannot read yet: pick a profile with an OpenAI-compatible source (OpenAI, Custom, OpenRouter, ...) in Retinue's options.`,
    'profile-proxy-preset': `${profile} sends its requests through a reverse-proxy preset, which SillyTavern does not let page scripts use: remove the proxy from that profile, or pick another profile in Retinue's options.`,
    'profile-preset-missing': `${profile} uses the completion preset “${preset ?? 'unknown'}”, which SillyTavern does not have (any more): pick an existing preset for that profile in SillyTavern's Connection Manager, or bind this agent to another profile in Retinue's options.`,
  };
  return new ConfigurationError(`connection-profile-${refusal}`, messages[refusal]);
}
