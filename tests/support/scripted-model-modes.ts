/**
 * Endpoint behaviours the scripted server can put on, each as real servers do it: refusing `tools`,
 * a context window (in characters), a model whose tool calls come back as text in one of the real
 * formats, and answers cut short cleanly.
 */
import type { ChatCompletionCreateParams } from 'openai/resources/chat/completions';
import { argumentsText } from './scripted-model-chunks';
import type { ScriptedStatusFault, ScriptedToolCall, ScriptedTurn } from './scripted-model-types';

/** The text formats the server can write tool calls in (see tests/fixtures/corpora/text-tool-calls.json). */
export type TextCallFormat = 'hermes' | 'fenced-json' | 'bare-json' | 'llama-python-tag' | 'mistral' | 'qwen3-coder' | 'deepseek';

export interface ScriptedEndpointModes {
  /** Answers any request carrying `tools` with Ollama's 400 "does not support tools". */
  refuseTools?: boolean;
  /** Answers a request whose messages and tools (as JSON) are longer than this with OpenAI's 400 `context_length_exceeded`. */
  contextWindowChars?: number;
  /**
   * The window the refusal states, in tokens (default: `contextWindowChars`); the refused request's
   * size is stated in the same proportion, as a server whose tokenizer it is would count it.
   */
  contextWindowTokens?: number;
  /** Answers any request carrying `stream_options` with Azure's 400 "Unrecognized request argument supplied: stream_options". */
  refuseStreamOptions?: boolean;
  /**
   * A strict chat template (Gemma's on vLLM): a request with `tool` messages, assistant `tool_calls`,
   * or two user or two assistant turns in a row (after the system text) gets 400 "Conversation
   * roles must alternate user/assistant/user/assistant/...".
   */
  strictRoles?: boolean;
  /** Writes every scripted tool call into the content, as a model whose server does not parse calls. */
  textCalls?: TextCallFormat;
}

/** How many characters a request takes of the context window: its messages and tools as JSON. */
export function requestSize(body: ChatCompletionCreateParams): number {
  return JSON.stringify(body.messages).length + JSON.stringify(body.tools ?? []).length;
}

/** Whether the turns alternate as a strict template wants: no tool roles, no two user or assistant turns in a row. */
function alternates(body: ChatCompletionCreateParams): boolean {
  let previous: string | undefined;
  for (const message of body.messages) {
    if (message.role === 'system' || message.role === 'developer') continue;
    if (message.role === 'tool' || (message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0)) return false;
    if (message.role === previous) return false;
    previous = message.role;
  }
  return true;
}

/** The refusal a request gets under the modes, if any. */
export function endpointRefusal(modes: ScriptedEndpointModes, body: ChatCompletionCreateParams): ScriptedStatusFault | undefined {
  if (modes.refuseStreamOptions && body.stream_options !== undefined) {
    return { fault: 'status', status: 400, message: 'Unrecognized request argument supplied: stream_options', code: 'invalid_request_error' };
  }
  if (modes.refuseTools && (body.tools?.length ?? 0) > 0) {
    return { fault: 'status', status: 400, message: `registry.ollama.ai/library/${String(body.model)} does not support tools` };
  }
  if (modes.strictRoles && !alternates(body)) {
    return { fault: 'status', status: 400, message: 'Conversation roles must alternate user/assistant/user/assistant/...', code: 'BadRequestError' };
  }
  // Sized only for an endpoint with a window: the JSON of a long history is the server's largest cost.
  const size = modes.contextWindowChars === undefined ? 0 : requestSize(body);
  if (modes.contextWindowChars !== undefined && size > modes.contextWindowChars) {
    const windowTokens = modes.contextWindowTokens ?? modes.contextWindowChars;
    const sizeTokens = Math.round((size * windowTokens) / modes.contextWindowChars);
    return {
      fault: 'status',
      status: 400,
      message: `This model's maximum context length is ${windowTokens} tokens. However, your messages resulted in ${sizeTokens} tokens. Please reduce the length of the messages.`,
      code: 'context_length_exceeded',
      param: 'messages',
    };
  }
  return undefined;
}

/** The calls as one text, in a real model family's format. */
export function textOfCalls(calls: ScriptedToolCall[], format: TextCallFormat): string {
  const objects = calls.map((call) => `{"name": "${call.name}", "arguments": ${argumentsText(call.arguments)}}`);
  switch (format) {
    case 'hermes':
      return objects.map((object) => `<tool_call>\n${object}\n</tool_call>`).join('\n');
    case 'fenced-json':
      return `\`\`\`json\n${objects.length === 1 ? objects[0] : `[${objects.join(', ')}]`}\n\`\`\``;
    case 'bare-json':
      return objects.length === 1 ? (objects[0] as string) : `[${objects.join(', ')}]`;
    case 'llama-python-tag':
      return `<|python_tag|>${calls.map((call) => `{"name": "${call.name}", "parameters": ${argumentsText(call.arguments)}}`).join('; ')}`;
    case 'mistral':
      return `[TOOL_CALLS]${JSON.stringify(calls.map((call) => ({ name: call.name, arguments: call.arguments })))}`;
    case 'qwen3-coder':
      return calls
        .map((call) => {
          const entries = typeof call.arguments === 'string' ? [] : Object.entries(call.arguments);
          const parameters = entries.map(([key, value]) => `<parameter=${key}>\n${typeof value === 'string' ? value : JSON.stringify(value)}\n</parameter>`);
          return `<tool_call>\n<function=${call.name}>\n${parameters.join('\n')}\n</function>\n</tool_call>`;
        })
        .join('\n');
    case 'deepseek': {
      const inner = calls.map((call) => `<｜tool▁call▁begin｜>${call.name}<｜tool▁sep｜>${argumentsText(call.arguments)}<｜tool▁call▁end｜>`).join('');
      return `<｜tool▁calls▁begin｜>${inner}<｜tool▁calls▁end｜>`;
    }
  }
}

/** The turn as a model without parsed tool calls sends it: the calls written into the content. */
export function withTextCalls(turn: ScriptedTurn, format: TextCallFormat | undefined): ScriptedTurn {
  if (!format || (turn.toolCalls?.length ?? 0) === 0) return turn;
  const text = textOfCalls(turn.toolCalls ?? [], format);
  const { toolCalls: _written, ...rest } = turn;
  return { ...rest, content: turn.content ? `${turn.content}\n${text}` : text, finishReason: turn.finishReason ?? 'stop' };
}
