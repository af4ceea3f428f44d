import type { HostAdapterId } from '../chat-turn-request';
import type { PageStreamFormat } from '../page-stream-format';
import { claudeStreamFormat } from './claude-stream-format';
import { googleStreamFormat } from './google-stream-format';

/**
 * The stream events SillyTavern's page reads for its non-OpenAI sources, by `chat_completion_source`.
 * Apart from the sources' reply schemas (`source-protocols.ts`): the bridge writes these streams into
 * every enabled page and carries only this.
 */
export const SOURCE_STREAM_FORMATS: Readonly<Record<string, PageStreamFormat>> = {
  claude: claudeStreamFormat,
  makersuite: googleStreamFormat,
  vertexai: googleStreamFormat,
};

/** The `chat_completion_source` of a SillyTavern request body (`openai` when it names none, as SillyTavern does). */
export function sillyTavernSourceOf(body: unknown): string {
  const source = (body as { chat_completion_source?: unknown } | null)?.chat_completion_source;
  return typeof source === 'string' && source.length <= 64 ? source : 'openai';
}

/**
 * The stream format of a chat turn's source when it is one of the above: undefined for OpenAI-shaped
 * sources and for every other host.
 */
export function sourceStreamFormatFor(adapter: HostAdapterId, body: unknown): PageStreamFormat | undefined {
  if (adapter !== 'sillytavern') return undefined;
  const source = sillyTavernSourceOf(body);
  return Object.hasOwn(SOURCE_STREAM_FORMATS, source) ? SOURCE_STREAM_FORMATS[source] : undefined;
}
