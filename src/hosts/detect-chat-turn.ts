import type { ChatTurnRequest, HostAdapterId } from './chat-turn-request';
import { trimEndOf } from '../text-edges';
import { OPENAI_CHAT_PATH } from './openai-chat/chat-turn';
import { isSillyTavernChatTurnType, SILLYTAVERN_GENERATE_PATH, sillyTavernProviderStatus } from './sillytavern/chat-turn';

/**
 * Which adapter a request's URL belongs to, before any body is read: SillyTavern's generate endpoint
 * is `sillytavern`, any other `/chat/completions` path is `openai-chat`. MAIN-world code: no imports
 * beyond the two tiny chat-turn modules.
 */
export function adapterForUrl(url: string): HostAdapterId | undefined {
  const path = trimEndOf(new URL(url).pathname, '/');
  if (path.endsWith(SILLYTAVERN_GENERATE_PATH)) return 'sillytavern';
  if (path.endsWith(OPENAI_CHAT_PATH)) return 'openai-chat';
  return undefined;
}

/**
 * The adapter that takes this request as a chat turn, or undefined when it passes through: a POST to
 * an adapter's endpoint whose JSON body has `messages` (and, for SillyTavern, a chat-turn `type`).
 */
export function detectChatTurn(request: ChatTurnRequest): HostAdapterId | undefined {
  const adapter = request.method.toUpperCase() === 'POST' ? adapterForUrl(request.url) : undefined;
  return adapter && isChatTurnBody(adapter, request.body) ? adapter : undefined;
}

/** Whether the JSON body of a POST to the adapter's endpoint is a chat turn (the page hook checked the rest). */
export function isChatTurnBody(adapter: HostAdapterId, body: unknown): body is Record<string, unknown> {
  const fields = body as { messages?: unknown; type?: unknown } | null | undefined;
  return typeof fields === 'object' && fields !== null && Array.isArray(fields.messages) && (adapter === 'openai-chat' || isSillyTavernChatTurnType(fields.type));
}

/**
 * The model's status behind a host call's response, as the adapter's host reports it: SillyTavern's
 * server turns a provider's 401 into a 400 "Unauthorized"; an OpenAI-style endpoint answers directly.
 */
export function hostCallStatus(adapter: HostAdapterId, response: { status: number; statusText: string }): number {
  return adapter === 'sillytavern' ? sillyTavernProviderStatus(response.status, response.statusText) : response.status;
}
