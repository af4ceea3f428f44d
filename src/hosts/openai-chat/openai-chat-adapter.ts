import type { HostAdapter } from '../host-adapter';
import { readPromptSnapshot } from '../read-snapshot';

/**
 * `openai-chat`: any page that POSTs an OpenAI chat-completions body to a path ending in
 * `/chat/completions`. The body is the snapshot; the answer is OpenAI JSON or SSE, as asked.
 */
export const openAiChatAdapter: HostAdapter = {
  id: 'openai-chat',
  readRequest(body) {
    const snapshot = readPromptSnapshot(body);
    return { kind: 'run', snapshot, stream: snapshot.stream === true };
  },
};

/*
 * Checked against (request and response shapes):
 * - https://platform.openai.com/docs/api-reference/chat/create
 * - https://platform.openai.com/docs/api-reference/chat-streaming
 * - https://github.com/ggml-org/llama.cpp/tree/master/tools/server/webui (POST /v1/chat/completions, reasoning_content)
 * - https://github.com/ChatGPTNextWeb/NextChat (POST …/v1/chat/completions)
 */
