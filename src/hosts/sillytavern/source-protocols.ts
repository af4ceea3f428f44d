import type { WholeReplyProtocol } from '../../model/model-client';
import type { HostAdapterId } from '../chat-turn-request';
import type { PageStreamFormat } from '../page-stream-format';
import { claudeStreamFormat, claudeWholeReply } from './claude-source';
import { googleStreamFormat, googleWholeReply } from './google-source';

/** How Retinue speaks with one of SillyTavern's non-OpenAI Chat Completion sources. */
export interface SourceProtocol {
  /** How Retinue's calls through the page go and how their replies are read. */
  wholeReply: WholeReplyProtocol;
  /** The events the page reads when it asked for a stream. */
  streamFormat: PageStreamFormat;
}

const claude: SourceProtocol = { wholeReply: claudeWholeReply, streamFormat: claudeStreamFormat };
const google: SourceProtocol = { wholeReply: googleWholeReply, streamFormat: googleStreamFormat };

/** The sources, by `chat_completion_source`, that Retinue serves in their own shapes. */
export const SOURCE_PROTOCOLS: Readonly<Record<string, SourceProtocol>> = { claude, makersuite: google, vertexai: google };

/** The `chat_completion_source` of a SillyTavern request body (`openai` when it names none, as SillyTavern does). */
export function sillyTavernSourceOf(body: unknown): string {
  const source = (body as { chat_completion_source?: unknown } | null)?.chat_completion_source;
  return typeof source === 'string' && source.length <= 64 ? source : 'openai';
}

/**
 * The protocol of a chat turn's source when it is one of the above: undefined for OpenAI-shaped
 * sources and for every other host.
 */
export function sourceProtocolFor(adapter: HostAdapterId, body: unknown): SourceProtocol | undefined {
  if (adapter !== 'sillytavern') return undefined;
  return Object.hasOwn(SOURCE_PROTOCOLS, sillyTavernSourceOf(body)) ? SOURCE_PROTOCOLS[sillyTavernSourceOf(body)] : undefined;
}
