/**
 * SillyTavern's Claude source (`chat_completion_source: 'claude'`), as its generate endpoint takes
 * and answers a call, and as its page reads a stream:
 * - a call goes non-streamed (a streamed answer is Anthropic's own event stream); `tools` in the
 *   OpenAI form, which the server turns into Claude's `input_schema` tools; `tool_choice` a string
 *   the server wraps as `{type}` (`auto`, `any`, `none`);
 * - the reply is `{choices: [{message: {content}}], content: [...]}`: the first text block in
 *   `choices`, and Claude's own content blocks (`text`, `thinking`, `tool_use`) in `content`;
 * - a streamed answer the page reads is Claude's events: `delta.text`, and `delta.thinking` as reasoning.
 */
import type { ChatCompletionMessageFunctionToolCall } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { lazySchema } from '../../lazy-schema';
import type { CompletionBodyOutcome } from '../../model/completion-body';
import type { ModelCallResult, WholeReplyProtocol } from '../../model/model-client';
import { fixToolCallArguments, parseReplyJson, readFailure, turnOfBlocks } from './source-reply';

// The page's stream lives in its own module, so the bridge carries it without the reply schemas.
export { claudeStreamFormat } from './claude-stream-format';

const MAX_BLOCKS = 1_000;

const textBlockSchema = lazySchema(() => z.looseObject({ type: z.literal('text'), text: z.string() }));
const thinkingBlockSchema = lazySchema(() => z.looseObject({ type: z.literal('thinking'), thinking: z.string() }));
const toolUseBlockSchema = lazySchema(() => z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(200),
  input: z.unknown(),
}));
/** Blocks Retinue reads; any other block (`redacted_thinking`, server tool results, ...) is passed over. */
const contentBlockSchema = lazySchema(() => z.union([textBlockSchema, thinkingBlockSchema, toolUseBlockSchema, z.looseObject({ type: z.string() })]));

/** SillyTavern's wrapped non-streamed Claude reply. */
export const claudeReplySchema = lazySchema(() => z.looseObject({
  choices: z.array(z.looseObject({ message: z.looseObject({ content: z.string().nullish() }) })).optional(),
  content: z.array(contentBlockSchema).max(MAX_BLOCKS),
}));
export type ClaudeReply = z.infer<typeof claudeReplySchema>;

/** What the server wraps as `{type: tool_choice}`: Claude's names for OpenAI's choices. */
function claudeToolChoice(choice: unknown): 'auto' | 'any' | 'none' {
  if (choice === 'none') return 'none';
  // `required`, or one named function (which the server cannot pass on): Claude must call some tool.
  if (choice === 'required' || (typeof choice === 'object' && choice !== null)) return 'any';
  return 'auto';
}

/**
 * A call's body as SillyTavern's Claude source takes it: non-streamed; a string `tool_choice` when
 * tools go along; no assistant prefill from the page's settings (it would put words in an agent's
 * mouth); thinking off (`reasoning_effort: auto`), since the server rebuilds a tool-calling turn
 * from its tool calls alone and Claude refuses such a turn without its signed thinking block; tool
 * call arguments that are not a JSON object become `{}` (the server parses them and fails the
 * whole request on one it cannot).
 */
export function claudeCallBody(body: Record<string, unknown>): Record<string, unknown> {
  const { stream_options: _streamOptions, ...rest } = body;
  const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
  const call: Record<string, unknown> = { ...rest, stream: false, assistant_prefill: '', reasoning_effort: 'auto' };
  if (hasTools) call.tool_choice = claudeToolChoice(body.tool_choice);
  else delete call.tool_choice;
  if (Array.isArray(body.messages)) call.messages = body.messages.map(fixToolCallArguments);
  return call;
}

/** Reads the blocks of a parsed reply into one assistant turn: text joined, `tool_use` as tool calls, thinking as reasoning. */
export function claudeTurnOf(reply: ClaudeReply): ModelCallResult {
  const texts: string[] = [];
  const thoughts: string[] = [];
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = [];
  for (const block of reply.content) {
    const text = textBlockSchema.safeParse(block);
    if (text.success) texts.push(text.data.text);
    const thinking = thinkingBlockSchema.safeParse(block);
    if (thinking.success) thoughts.push(thinking.data.thinking);
    const toolUse = toolUseBlockSchema.safeParse(block);
    if (toolUse.success) {
      toolCalls.push({ id: toolUse.data.id, type: 'function', function: { name: toolUse.data.name, arguments: JSON.stringify(toolUse.data.input ?? {}) } });
    }
  }
  return turnOfBlocks(texts.join(''), toolCalls, thoughts);
}

/** Reads SillyTavern's whole Claude reply text. */
export function readClaudeReply(text: string): CompletionBodyOutcome {
  const json = parseReplyJson(text);
  if (!json.ok) return json;
  const parsed = claudeReplySchema.safeParse(json.value);
  if (!parsed.success) {
    return readFailure(json.value, "its answer is not SillyTavern's Claude reply (no `content` list of Claude's blocks); check that the page's source is Claude", parsed.error);
  }
  return { ok: true, result: claudeTurnOf(parsed.data) };
}

/** Calls through SillyTavern's Claude source. */
export const claudeWholeReply: WholeReplyProtocol = { name: "SillyTavern's Claude source", callBody: claudeCallBody, readReply: readClaudeReply };
