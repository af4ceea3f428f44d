import type { HostAdapter } from '../host-adapter';
import { readPromptSnapshot } from '../read-snapshot';
import { SOURCE_PROTOCOLS, sillyTavernSourceOf } from './source-protocols';
import { OPENAI_SHAPED_SOURCES } from './openai-shaped-sources';

export { OPENAI_SHAPED_SOURCES } from './openai-shaped-sources';

/**
 * `sillytavern`: SillyTavern's `POST /api/backends/chat-completions/generate`. Chat turns of an
 * OpenAI-shaped source become runs, and so do those of Claude and Google (AI Studio, Vertex AI),
 * which Retinue calls and answers in their own shapes (`source-protocols.ts`); any other source
 * (Cohere, AI21, ...) speaks a format Retinue does not, so the turn goes to the page's server
 * untouched and the side panel says why.
 */
export const sillyTavernAdapter: HostAdapter = {
  id: 'sillytavern',
  readRequest(body) {
    const source = sillyTavernSourceOf(body);
    if (!OPENAI_SHAPED_SOURCES.includes(source) && !Object.hasOwn(SOURCE_PROTOCOLS, source)) {
      return {
        kind: 'pass-through',
        notice: { code: 'unsupported-source', messageKey: 'page_notice_unsupported_source', substitutions: [source] },
      };
    }
    const snapshot = readPromptSnapshot(body);
    return { kind: 'run', snapshot, stream: snapshot.stream === true };
  },
};

/*
 * Checked against SillyTavern 1.18.0 (https://github.com/SillyTavern/SillyTavern/releases/tag/1.18.0,
 * read in the fork https://github.com/jaidaken/SillyTavern/tree/1.18.0):
 * - public/scripts/openai.js sendOpenAIRequest: POST /api/backends/chat-completions/generate with
 *   headers Content-Type and X-CSRF-Token; body type, messages, model, stream, sampling,
 *   chat_completion_source, custom_url; `!response.ok` → the body's error.message shown as a toast.
 * - public/scripts/openai.js getStreamingReply: which sources read choices[0].delta.content and
 *   delta.reasoning_content.
 * - Checked by hand on 2026-11-30: SillyTavern 1.18.0 on loopback, source Custom (OpenAI-compatible),
 *   streamed and not; replies land in the chat, progress in its reasoning block, a failed run as its toast.
 * - src/endpoints/backends/chat-completions.js sendClaudeRequest and sendMakerSuiteRequest, and
 *   src/prompt-converters.js convertClaudeMessages and convertGooglePrompt: how a Claude or Google
 *   call's body is converted and its non-streamed reply wrapped (see claude-source.ts, google-source.ts);
 *   public/scripts/openai.js getStreamingReply and public/script.js extractMessageFromData: what the
 *   page reads of each source's stream and whole reply.
 */
