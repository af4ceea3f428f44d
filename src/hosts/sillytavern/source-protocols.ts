import type { WholeReplyProtocol } from '../../model/model-client';
import type { HostAdapterId } from '../chat-turn-request';
import type { PageStreamFormat } from '../page-stream-format';
import { claudeWholeReply } from './claude-source';
import { googleWholeReply } from './google-source';
import { SOURCE_STREAM_FORMATS, sillyTavernSourceOf } from './source-stream-formats';

export { sillyTavernSourceOf } from './source-stream-formats';

/** How Retinue speaks with one of SillyTavern's non-OpenAI Chat Completion sources. */
export interface SourceProtocol {
  /** How Retinue's calls through the page go and how their replies are read. */
  wholeReply: WholeReplyProtocol;
  /** The events the page reads when it asked for a stream. */
  streamFormat: PageStreamFormat;
}

const wholeReplies: Readonly<Record<string, WholeReplyProtocol>> = { claude: claudeWholeReply, makersuite: googleWholeReply, vertexai: googleWholeReply };

/** The sources, by `chat_completion_source`, that Retinue serves in their own shapes. */
export const SOURCE_PROTOCOLS: Readonly<Record<string, SourceProtocol>> = Object.fromEntries(
  Object.entries(wholeReplies).map(([source, wholeReply]) => [source, { wholeReply, streamFormat: SOURCE_STREAM_FORMATS[source] as PageStreamFormat }]),
);

/**
 * The protocol of a chat turn's source when it is one of the above: undefined for OpenAI-shaped
 * sources and for every other host.
 */
export function sourceProtocolFor(adapter: HostAdapterId, body: unknown): SourceProtocol | undefined {
  if (adapter !== 'sillytavern') return undefined;
  const source = sillyTavernSourceOf(body);
  return Object.hasOwn(SOURCE_PROTOCOLS, source) ? SOURCE_PROTOCOLS[source] : undefined;
}
