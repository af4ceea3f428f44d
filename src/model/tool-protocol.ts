/**
 * The one set of helpers every loop uses to speak the chat-completions tool protocol: tool names,
 * tool definitions from zod schemas, assistant messages and tool results.
 */
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionFunctionTool,
  ChatCompletionMessageFunctionToolCall,
  ChatCompletionToolMessageParam,
} from 'openai/resources/chat/completions';
import { z } from 'zod';

/**
 * The name a provider sees: dots become underscores (`agent.delegate` → `agent_delegate`), since
 * providers accept only `[a-zA-Z0-9_-]` in tool names. Canonical names never contain underscores.
 */
export function toProviderToolName(canonicalName: string): string {
  return canonicalName.replaceAll('.', '_');
}

/**
 * The canonical name for a provider's tool name (`agent_delegate` → `agent.delegate`): only the first
 * underscore is the dot, so a name with an underscore of its own survives (`lore_list_activated` →
 * `lore.list_activated`).
 */
export function toCanonicalToolName(providerName: string): string {
  return providerName.replace('_', '.');
}

/** A tool as the registry describes it: canonical name, a description for the model, zod parameters. */
export interface ToolDescriptor {
  name: string;
  description: string;
  parameters: z.ZodType;
}

/**
 * The chat-completions tool definition, its parameters as JSON Schema (draft 7, as OpenAI-compatible
 * servers and llama.cpp's grammar converter accept), with noise providers choke on removed.
 *
 * @example
 * toToolDefinition({ name: 'chat.read', description: 'Read the chat.', parameters: z.object({ count: z.number().optional() }) });
 * // → { type: 'function', function: { name: 'chat_read', description: 'Read the chat.', parameters: { type: 'object', ... } } }
 */
export function toToolDefinition(tool: ToolDescriptor): ChatCompletionFunctionTool {
  return {
    type: 'function',
    function: {
      name: toProviderToolName(tool.name),
      description: tool.description,
      parameters: toParametersSchema(tool.parameters),
    },
  };
}

/** The JSON Schema of a tool's zod parameters, as the model should fill them in. */
export function toParametersSchema(parameters: z.ZodType): Record<string, unknown> {
  const schema = z.toJSONSchema(parameters, { target: 'draft-7', io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return cleanSchema(schema) as Record<string, unknown>;
}

const SAFE_INTEGER_BOUND = Number.MAX_SAFE_INTEGER;

/**
 * Validation bounds the model does not need to fill a call in: the dispatcher checks every call
 * against the zod schema anyway, and each of these costs context on every request.
 */
const VALIDATION_ONLY_KEYS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minimum', 'maximum', 'additionalProperties']);

/**
 * Drops `$schema`, validation-only bounds and trivial `propertyNames` (which some providers refuse),
 * keeping types, enums, required fields and descriptions.
 */
function cleanSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(cleanSchema);
  if (node === null || typeof node !== 'object') return node;
  const cleaned: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$schema' || VALIDATION_ONLY_KEYS.has(key)) continue;
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === SAFE_INTEGER_BOUND) continue;
    if (key === 'propertyNames' && isPlainStringSchema(value)) continue;
    cleaned[key] = cleanSchema(value);
  }
  return cleaned;
}

function isPlainStringSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.keys(value).length === 1 && (value as { type?: unknown }).type === 'string';
}

/** One tool call of an assistant turn, by provider name. */
export interface ToolCallRequest {
  id: string;
  /** The provider name (`agent_delegate`); use {@link toProviderToolName} on canonical names. */
  name: string;
  /** The arguments exactly as the model wrote them (a JSON string, possibly broken). */
  arguments: string;
}

/** An assistant message for the history: text, tool calls, or both. */
export function assistantMessage(turn: { content?: string | null; toolCalls?: ToolCallRequest[] }): ChatCompletionAssistantMessageParam {
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = (turn.toolCalls ?? []).map((call) => ({
    id: call.id,
    type: 'function',
    function: { name: call.name, arguments: call.arguments },
  }));
  if (toolCalls.length === 0) return { role: 'assistant', content: turn.content ?? '' };
  return { role: 'assistant', content: turn.content ? turn.content : null, tool_calls: toolCalls };
}

/** The tool calls of an assistant message (function calls only), ready to dispatch. */
export function toolCallsOf(message: ChatCompletionAssistantMessageParam): ToolCallRequest[] {
  return (message.tool_calls ?? []).flatMap((call) =>
    call.type === 'function' ? [{ id: call.id, name: call.function.name, arguments: call.function.arguments }] : [],
  );
}

/** The history message that answers one tool call. */
export function toolResultMessage(toolCallId: string, text: string): ChatCompletionToolMessageParam {
  return { role: 'tool', tool_call_id: toolCallId, content: text };
}

/** Parsed tool arguments, or what was wrong with them in words the model can act on. */
export type ParsedToolArguments = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Parses the arguments string of a tool call. An empty string stands for `{}` (some models send
 * nothing for a tool without parameters).
 */
export function parseToolArguments(toolName: string, text: string): ParsedToolArguments {
  if (text.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      ok: false,
      message: `The arguments of ${toProviderToolName(toolName)} were not valid JSON (${reason}). Call it again with one JSON object that follows its parameters.`,
    };
  }
}
