import type { ChatTurnRequest, HostAdapterId } from './chat-turn-request';
import { isOpenAiChatPath, isOpenAiChatTurn } from './openai-chat/chat-turn';
import { isSillyTavernChatTurn, isSillyTavernGeneratePath, sillyTavernProviderStatus } from './sillytavern/chat-turn';

/**
 * Which adapter a request's URL belongs to, before any body is read: SillyTavern's generate endpoint
 * is `sillytavern`, any other `/chat/completions` path is `openai-chat`. MAIN-world code: no imports
 * beyond the two tiny chat-turn modules.
 */
export function adapterForUrl(url: string): HostAdapterId | undefined {
  if (isSillyTavernGeneratePath(url)) return 'sillytavern';
  if (isOpenAiChatPath(url)) return 'openai-chat';
  return undefined;
}

/** The adapter that takes this request as a chat turn, or undefined when it passes through. */
export function detectChatTurn(request: ChatTurnRequest): HostAdapterId | undefined {
  const adapter = adapterForUrl(request.url);
  if (adapter === 'sillytavern') return isSillyTavernChatTurn(request) ? adapter : undefined;
  if (adapter === 'openai-chat') return isOpenAiChatTurn(request) ? adapter : undefined;
  return undefined;
}

/**
 * The model's status behind a host call's response, as the adapter's host reports it: SillyTavern's
 * server turns a provider's 401 into a 400 "Unauthorized"; an OpenAI-style endpoint answers directly.
 */
export function hostCallStatus(adapter: HostAdapterId, response: { status: number; statusText: string }): number {
  return adapter === 'sillytavern' ? sillyTavernProviderStatus(response.status, response.statusText) : response.status;
}
