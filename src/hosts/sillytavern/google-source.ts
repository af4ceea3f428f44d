/**
 * SillyTavern's Google sources (`makersuite` for AI Studio, `vertexai` for Vertex AI), as its generate
 * endpoint takes and answers a call, and as its page reads a stream:
 * - a call goes non-streamed (a streamed answer is Gemini's own event stream); `tools` in the OpenAI
 *   form, which the server turns into `function_declarations`, `tool_choice` into `functionCallingConfig`;
 * - the reply is `{choices: [{message: {content}}], responseContent: {parts: [...]}}`: the text in
 *   `choices`, and Gemini's own parts (`text`, `thought: true` text, `functionCall`) in `responseContent`;
 *   a provider failure may come back with status 200 as `{error: {message}}`;
 * - a streamed answer the page reads is Gemini's `candidates[0].content.parts`, `thought` parts as reasoning.
 */
import type { ChatCompletionMessageFunctionToolCall } from 'openai/resources/chat/completions';
import { z } from 'zod';
import { lazySchema } from '../../lazy-schema';
import type { CompletionBodyOutcome } from '../../model/completion-body';
import type { ModelCallResult, WholeReplyProtocol } from '../../model/model-client';
import { fixToolCallArguments, parseReplyJson, readFailure, turnOfBlocks } from './source-reply';

// The page's stream lives in its own module, so the bridge carries it without the reply schemas.
export { googleStreamFormat } from './google-stream-format';

const MAX_PARTS = 1_000;

const partSchema = lazySchema(() => z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  functionCall: z.looseObject({ name: z.string().min(1).max(200), args: z.record(z.string(), z.unknown()).nullish() }).optional(),
}));

/** SillyTavern's wrapped non-streamed Google reply. */
export const googleReplySchema = lazySchema(() => z.looseObject({
  choices: z.array(z.looseObject({ message: z.looseObject({ content: z.string().nullish() }) })).optional(),
  responseContent: z.union([z.looseObject({ parts: z.array(partSchema).max(MAX_PARTS).optional() }), z.string()]),
}));
export type GoogleReply = z.infer<typeof googleReplySchema>;

/**
 * A call's body as SillyTavern's Google sources take it: non-streamed, tool call arguments a JSON
 * object each (the server parses them into `args`). `tools` and `tool_choice` go as they are.
 */
export function googleCallBody(body: Record<string, unknown>): Record<string, unknown> {
  const { stream_options: _streamOptions, ...rest } = body;
  const call: Record<string, unknown> = { ...rest, stream: false };
  if (Array.isArray(body.messages)) call.messages = body.messages.map(fixToolCallArguments);
  return call;
}

let callCounter = 0;

/** Reads a parsed reply's parts into one assistant turn: text joined, `functionCall` as tool calls, thoughts as reasoning. */
export function googleTurnOf(reply: GoogleReply): ModelCallResult {
  const parts = typeof reply.responseContent === 'string' ? [{ text: reply.responseContent }] : (reply.responseContent.parts ?? []);
  const texts: string[] = [];
  const thoughts: string[] = [];
  const toolCalls: ChatCompletionMessageFunctionToolCall[] = [];
  for (const part of parts) {
    if (part.functionCall) {
      // Gemini gives calls no id; tool results find their call by this one (the server maps it back to the name).
      callCounter += 1;
      const id = `google_call_${callCounter}_${Math.random().toString(36).slice(2, 8)}`;
      toolCalls.push({ id, type: 'function', function: { name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) } });
    } else if (typeof part.text === 'string') {
      (part.thought ? thoughts : texts).push(part.text);
    }
  }
  return turnOfBlocks(texts.join('\n\n'), toolCalls, thoughts);
}

/** Reads SillyTavern's whole Google reply text. */
export function readGoogleReply(text: string): CompletionBodyOutcome {
  const json = parseReplyJson(text);
  if (!json.ok) return json;
  const parsed = googleReplySchema.safeParse(json.value);
  if (!parsed.success) {
    return readFailure(json.value, "its answer is not SillyTavern's Google reply (no `responseContent` with Gemini's parts); check that the page's source is Google AI Studio or Vertex AI", parsed.error);
  }
  return { ok: true, result: googleTurnOf(parsed.data) };
}

/** Calls through SillyTavern's Google sources. */
export const googleWholeReply: WholeReplyProtocol = { name: "SillyTavern's Google source", callBody: googleCallBody, readReply: readGoogleReply };
