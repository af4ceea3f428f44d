/**
 * An OpenAI-style chat-completions endpoint: a path ending in `/chat/completions` (trailing slashes
 * aside); a POST there whose JSON body carries a `messages` array is a chat turn (detect-chat-turn.ts).
 */
export const OPENAI_CHAT_PATH = '/chat/completions';
