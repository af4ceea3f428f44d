/**
 * The prompted tool protocol, for endpoints that refuse `tools`: the tool definitions go into the
 * system text with one concrete example call, and a history held in native form (assistant
 * `tool_calls`, `tool` messages) is written as text: calls as `<tool_call>` blocks in the
 * assistant's text, results as a user message. The model's text calls are read back by
 * `parseTextToolCalls`.
 */
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { isPlainObject, parseJsonOrUndefined } from './json-scan';

type JsonSchema = Record<string, unknown>;

/** Text of a message's content, whether a string or a list of parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part) => (isPlainObject(part) && typeof part.text === 'string' ? part.text : '')).join('');
}

function typeOf(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join('|');
  if (Array.isArray(schema.anyOf)) return schema.anyOf.map((option) => (isPlainObject(option) ? typeOf(option) : 'any')).join('|');
  if (schema.type === 'array' && isPlainObject(schema.items)) return `${typeOf(schema.items)}[]`;
  return typeof schema.type === 'string' ? schema.type : 'any';
}

function parametersOf(tool: ChatCompletionTool): { properties: Record<string, JsonSchema>; required: Set<string> } {
  const parameters = tool.type === 'function' ? (tool.function.parameters ?? {}) : {};
  const properties = isPlainObject(parameters.properties) ? (parameters.properties as Record<string, JsonSchema>) : {};
  const required = new Set(Array.isArray(parameters.required) ? (parameters.required as string[]) : []);
  return { properties, required };
}

/** `name(a: string, b?: number)`: a tool's signature in one line. */
function signature(tool: ChatCompletionTool): string {
  if (tool.type !== 'function') return '';
  const { properties, required } = parametersOf(tool);
  const parameters = Object.entries(properties).map(([name, schema]) => `${name}${required.has(name) ? '' : '?'}: ${typeOf(schema)}`);
  return `${tool.function.name}(${parameters.join(', ')})`;
}

function exampleValue(schema: JsonSchema): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.type === 'number' || schema.type === 'integer') return 1;
  if (schema.type === 'boolean') return true;
  if (schema.type === 'array') return [];
  if (schema.type === 'object') return {};
  return 'text';
}

/** One concrete call of the first tool, its required arguments filled in. */
function exampleCall(tools: ChatCompletionTool[]): string {
  const tool = tools.find((candidate) => candidate.type === 'function');
  if (!tool || tool.type !== 'function') return '';
  const { properties, required } = parametersOf(tool);
  const argumentsValue = Object.fromEntries([...required].map((name) => [name, exampleValue(properties[name] ?? {})]));
  return callBlock(tool.function.name, argumentsValue);
}

function callBlock(name: string, argumentsValue: unknown): string {
  return `<tool_call>\n${JSON.stringify({ name, arguments: argumentsValue })}\n</tool_call>`;
}

/**
 * The tool definitions as system text: how to call, one example, one line per tool.
 *
 * @example
 * renderToolsForPrompt([{ type: 'function', function: { name: 'agent_list', description: 'List agents.', parameters: { type: 'object', properties: {} } } }]);
 */
export function renderToolsForPrompt(tools: ChatCompletionTool[]): string {
  const lines = tools.flatMap((tool) => (tool.type === 'function' ? [`- ${signature(tool)}: ${tool.function.description ?? ''}`.trimEnd()] : []));
  return [
    '# Tools',
    'To call a tool, write a block like this (JSON inside), then stop and wait:',
    exampleCall(tools),
    'One block per call; several are fine. Results come back in the next message inside <tool_response>. Without a tool, answer in plain text.',
    ...lines,
  ].join('\n');
}

/** Results of consecutive tool messages as one user message. */
function resultsMessage(results: { name: string; text: string }[]): { role: 'user'; content: string } {
  const blocks = results.map((result) => `<tool_response name="${result.name}">\n${result.text}\n</tool_response>`);
  return { role: 'user', content: blocks.join('\n') };
}

/**
 * The request's messages for a prompted call: tools rendered into the system text (into the first
 * system message, or a new one at the top), calls written as `<tool_call>` blocks, results as user
 * messages. A call that offers no tools (a wrap-up) still gets its history written as text, without
 * a tools section: an endpoint that refused native tools is never sent `tool_calls` or `role: "tool"`.
 * Results and the instructions that follow them (a spend note, a wrap-up) go in one user message, so
 * the turns still alternate for templates that insist on it.
 */
export function encodeForPromptedTools(messages: ChatCompletionMessageParam[], tools: ChatCompletionTool[]): ChatCompletionMessageParam[] {
  const encoded: ChatCompletionMessageParam[] = [];
  const callNames = new Map<string, string>();
  let pendingResults: { name: string; text: string }[] = [];
  /** The last message when it is the results message this encoding wrote (later user text joins it). */
  let openResults: { role: 'user'; content: string } | undefined;
  const flushResults = () => {
    if (pendingResults.length > 0) {
      openResults = resultsMessage(pendingResults);
      encoded.push(openResults);
    }
    pendingResults = [];
  };
  for (const message of messages) {
    if (message.role === 'tool') {
      pendingResults.push({ name: callNames.get(message.tool_call_id) ?? 'tool', text: contentText(message.content) });
      continue;
    }
    flushResults();
    if (openResults && message.role === 'user' && typeof message.content === 'string') {
      openResults.content = `${openResults.content}\n\n${message.content}`;
      continue;
    }
    openResults = undefined;
    if (message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0) {
      const blocks = (message.tool_calls ?? []).flatMap((call) => {
        if (call.type !== 'function') return [];
        callNames.set(call.id, call.function.name);
        return [callBlock(call.function.name, parseJsonOrUndefined(call.function.arguments) ?? call.function.arguments)];
      });
      const text = contentText(message.content).trim();
      encoded.push({ role: 'assistant', content: [text, ...blocks].filter((part) => part !== '').join('\n') });
      continue;
    }
    encoded.push(message);
  }
  flushResults();
  if (tools.length === 0) return encoded;
  const toolText = renderToolsForPrompt(tools);
  const systemIndex = encoded.findIndex((message) => message.role === 'system' || message.role === 'developer');
  const system = encoded[systemIndex];
  if (system && (system.role === 'system' || system.role === 'developer')) {
    encoded[systemIndex] = { role: system.role, content: `${contentText(system.content)}\n\n${toolText}` };
  } else {
    encoded.unshift({ role: 'system', content: toolText });
  }
  return encoded;
}
