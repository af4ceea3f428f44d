/**
 * What a run does when the endpoint says the prompt does not fit the model's context: it sends a
 * smaller copy of the history (the stored history stays whole). First older tool results become
 * short pointers, then the oldest chat messages go (never a system message, nor the last user
 * message and what follows it, nor a child's task briefing), then the latest tool results become
 * pointers too. A size once refused is not sent again in that run, and a window the endpoint
 * stated is fitted before the next send (remembered per endpoint, so later runs start fitted).
 */
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { contentText } from '../model/prompted-tools';
import { loadTokenCounter, messageTokens, promptTokens, toolDefinitionTokens } from '../model/token-estimate';
import type { AgentInvocation } from '../records/invocation';

/** Each message's JSON length, measured once: a long chat is weighed again on every round. */
const jsonLengthCache = new WeakMap<object, number>();

/** The length of `JSON.stringify(items)`, from each item's length measured once. */
function jsonArrayLength(items: readonly object[]): number {
  let total = 2 + Math.max(0, items.length - 1);
  for (const item of items) {
    let length = jsonLengthCache.get(item);
    if (length === undefined) jsonLengthCache.set(item, (length = JSON.stringify(item).length));
    total += length;
  }
  return total;
}

/** Characters a request takes: its messages and tools as JSON (what the endpoint counts, roughly). */
export function requestSize(messages: readonly ChatCompletionMessageParam[], tools: readonly ChatCompletionTool[] | undefined): number {
  return jsonArrayLength(messages) + jsonArrayLength(tools ?? []);
}

/** A tool result no longer than this is kept as it is. */
const SHORT_RESULT = 300;
const PATH_PATTERN = /\b[\w.-]+(?:\/[\w.-]+)+\.(?:md|json|txt)\b/g;

/** The short stand-in for a tool result left out: its size, and the workspace files it named. */
export function toolResultPointer(text: string): string {
  const paths = [...new Set(text.match(PATH_PATTERN) ?? [])].slice(0, 3);
  const where = paths.length > 0 ? ` It named ${paths.join(', ')}; read those with workspace_read if you need them.` : ' Call the tool again if you need it.';
  return `(An earlier tool result of ${text.length} characters was left out to fit the model's context.${where})`;
}

function withPointers(messages: ChatCompletionMessageParam[], from: number, to: number): ChatCompletionMessageParam[] {
  return messages.map((message, index) => {
    if (message.role !== 'tool' || index < from || index >= to) return message;
    const text = contentText(message.content);
    return text.length <= SHORT_RESULT ? message : { ...message, content: toolResultPointer(text) };
  });
}

/** Where the latest round's tool results start (after the last assistant turn that called tools). */
function latestRoundStart(messages: ChatCompletionMessageParam[]): number {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index];
    if (message?.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0) return index;
  }
  return messages.length;
}

/** Whose history is trimmed: the root's holds the page's chat; a child's is its system text and briefing. */
export type TrimmedInvocationKind = AgentInvocation['kind'];

/**
 * Where the conversation an invocation answers ends: the root's is the page's chat (up to its first
 * round); a child's is its briefing, the first user message, whatever follows (a nudge, a wrap-up).
 */
function conversationEndOf(messages: ChatCompletionMessageParam[], kind: TrimmedInvocationKind): number {
  if (kind !== 'root') {
    const briefing = messages.findIndex((message) => message.role === 'user');
    return briefing < 0 ? 0 : briefing + 1;
  }
  const firstRound = messages.findIndex((message) => message.role === 'assistant' && (message.tool_calls?.length ?? 0) > 0);
  return firstRound < 0 ? messages.length : firstRound;
}

/**
 * The oldest message that may go: not a system message, and before the last user message of the
 * conversation itself (the one this invocation's rounds answer, not a later wrap-up instruction or
 * nudge; for a child, its briefing).
 */
function oldestDroppable(messages: ChatCompletionMessageParam[], kind: TrimmedInvocationKind): number | undefined {
  const conversationEnd = conversationEndOf(messages, kind);
  let lastUser = -1;
  messages.forEach((message, index) => {
    if (message.role === 'user' && index < conversationEnd) lastUser = index;
  });
  const index = messages.findIndex((message, position) => position < lastUser && message.role !== 'system' && message.role !== 'developer');
  return index < 0 ? undefined : index;
}

/** Drops one message; an assistant turn with tool calls goes with its results, so the history stays valid. */
function dropAt(messages: ChatCompletionMessageParam[], index: number): ChatCompletionMessageParam[] {
  const dropped = messages[index];
  let end = index + 1;
  if (dropped?.role === 'assistant' && (dropped.tool_calls?.length ?? 0) > 0) {
    while (messages[end]?.role === 'tool') end += 1;
  }
  return [...messages.slice(0, index), ...messages.slice(end)];
}

/**
 * Smaller and smaller copies of a history, in the order a refused request tries them. Each yields
 * the messages and a note of what was left out.
 */
export function* trimmedHistories(
  messages: ChatCompletionMessageParam[],
  kind: TrimmedInvocationKind = 'root',
): Generator<{ messages: ChatCompletionMessageParam[]; note: string }> {
  let current = withPointers(messages, 0, latestRoundStart(messages));
  if (JSON.stringify(current) !== JSON.stringify(messages)) yield { messages: current, note: 'older tool results left out' };
  let droppedCount = 0;
  for (let index = oldestDroppable(current, kind); index !== undefined; index = oldestDroppable(current, kind)) {
    current = dropAt(current, index);
    droppedCount += 1;
    yield { messages: current, note: `${droppedCount} oldest chat message(s) left out` };
  }
  const allPointers = withPointers(current, 0, current.length);
  if (JSON.stringify(allPointers) !== JSON.stringify(current)) yield { messages: allPointers, note: 'every tool result left out' };
}

/** The smallest refused request size per run and model, so a run never sends a refused size again. */
const refusedSizes = new WeakMap<object, Map<string, number>>();

export function refusedSizeFor(run: object, modelLabel: string): number {
  return refusedSizes.get(run)?.get(modelLabel) ?? Number.POSITIVE_INFINITY;
}

export function noteRefusedSize(run: object, modelLabel: string, size: number): void {
  const sizes = refusedSizes.get(run) ?? new Map<string, number>();
  sizes.set(modelLabel, Math.min(size, sizes.get(modelLabel) ?? Number.POSITIVE_INFINITY));
  refusedSizes.set(run, sizes);
}

/** Each message's estimated tokens, counted once: trimming weighs the same messages again and again. */
const messageTokenCache = new WeakMap<object, number>();
const toolTokenCache = new WeakMap<object, number>();

/** Retinue's estimate of the prompt tokens a request takes (`token-estimate.ts`), as it would be sent. */
export async function estimatedRequestTokens(
  messages: readonly ChatCompletionMessageParam[],
  tools: readonly ChatCompletionTool[] | undefined,
): Promise<number> {
  const count = await loadTokenCounter();
  // The reply's priming, counted as for any prompt.
  let total = promptTokens(count, []);
  if (tools && tools.length > 0) {
    let toolTokens = toolTokenCache.get(tools);
    if (toolTokens === undefined) toolTokenCache.set(tools, (toolTokens = toolDefinitionTokens(count, tools)));
    total += toolTokens;
  }
  for (const message of messages) {
    let tokens = messageTokenCache.get(message);
    if (tokens === undefined) messageTokenCache.set(message, (tokens = messageTokens(count, message)));
    total += tokens;
  }
  return total;
}
