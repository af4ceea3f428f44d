import type { ChatTurnRequest, HostAdapterId } from './chat-turn-request';
import { isOpenAiChatPath, isOpenAiChatTurn } from './openai-chat/chat-turn';
import { isSillyTavernChatTurn, isSillyTavernGeneratePath } from './sillytavern/chat-turn';

/**
 * Which adapter a request's URL belongs to, before any body is read: SillyTavern's generate endpoint
 * is `sillytavern`, any other `/chat/completions` path is `openai-chat`. MAIN-world code: no imports
 * beyond the two tiny chat-turn tests.
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
