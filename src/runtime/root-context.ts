import type { PromptSnapshot } from '../hosts/prompt-snapshot';
import type { StoredChatMessage } from '../records/invocation';
import type { AgentProfile } from '../settings/schema';
import type { InvocationPolicy } from './invocation-policy';

/** How the root's work reaches the page, said once in its instructions when it has tools. */
export const ROOT_RULES = [
  '## How your reply is sent',
  '- Your answer without a tool call is the reply; text beside a tool call may show as its start.',
].join('\n');

/** The instructions Retinue adds to the page's system text for the root. */
export function rootInstructions(profile: AgentProfile, policy: InvocationPolicy): string {
  const parts = [profile.systemPrompt.trim()];
  if (policy.tools.length > 0) parts.push(ROOT_RULES);
  return parts.filter((part) => part !== '').join('\n\n');
}

/**
 * The root's starting history: the page's messages, with the root profile's instructions merged
 * into the page's leading system message (or put before everything when the page has none).
 * Tools the page put in its request are not carried over: their code lives in the page.
 */
export function rootMessages(snapshot: PromptSnapshot, profile: AgentProfile, policy: InvocationPolicy): StoredChatMessage[] {
  const instructions = rootInstructions(profile, policy);
  const messages = snapshot.messages.map((message) => ({ ...message }) as StoredChatMessage);
  if (instructions === '') return messages;
  const first = messages[0];
  if (first && first.role === 'system' && typeof first.content === 'string') {
    return [{ ...first, content: `${instructions}\n\n${first.content}` }, ...messages.slice(1)];
  }
  return [{ role: 'system', content: instructions }, ...messages];
}
