import type { ChatCompletionAssistantMessageParam, ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { ProviderError, RetinueError } from '../errors';
import type { ModelCallResult } from '../model/model-client';
import { contentText } from '../model/prompted-tools';
import { toolCallsOf } from '../model/tool-protocol';
import { addUsage } from '../records/usage';
import { append, appendAndSave, historyOf, journalIds, type InvocationDriver } from './invocation-driver';
import { onlyReads } from './read-only-turns';
import { estimatedPromptBudget, learnedWindowFrom } from '../model/context-window';
import { ContextWindowRefusalError } from '../model/provider-errors';
import type { LearnedContextWindow } from '../model/tool-protocol-memory';
import { estimatedRequestTokens, noteRefusedSize, refusedSizeFor, requestSize, trimmedHistories } from './context-trimming';
import { abortReason } from './run-signals';
import type { PreparedTurn } from './turn-preparation';

function errorData(error: unknown): { code: string; message: string } {
  if (error instanceof RetinueError) return error.toJSON();
  return { code: 'unexpected', message: error instanceof Error ? error.message : String(error) };
}

/** Reasoning kept in the journal per call, at most. */
const MAX_JOURNALED_REASONING = 8_000;

type RetryNote = { attempt: number; delayMs: number; reason: string; status?: number };

/**
 * Sends the history, or, once the endpoint said it does not fit, smaller copies of it: a size once
 * refused in this run is never sent again, and a window the endpoint stated (in this refusal or an
 * earlier run's, remembered per endpoint) is fitted before the send. Throws the `context-too-long`
 * refusal when nothing smaller is left.
 */
async function callWithinContext(
  driver: InvocationDriver,
  prepared: PreparedTurn,
  noteRetry: (retry: RetryNote) => void,
  send: (messages: ChatCompletionMessageParam[]) => Promise<ModelCallResult>,
): Promise<ModelCallResult> {
  const { session, model } = driver;
  const candidates = trimmedHistories(historyOf(driver.invocation), driver.invocation.kind);
  let messages = historyOf(driver.invocation);
  let note = '';
  let window = await model.contextWindow?.();
  const fits = async () =>
    // Weighed only once a size was refused: before that every size fits.
    (refusedSizeFor(session, model.label) === Number.POSITIVE_INFINITY || requestSize(messages, prepared.tools) < refusedSizeFor(session, model.label)) &&
    (window === undefined || (await estimatedRequestTokens(messages, prepared.tools)) <= estimatedPromptBudget(window, driver.sampling.max_tokens));
  const trimFurther = async (): Promise<boolean> => {
    for (let next = candidates.next(); !next.done; next = candidates.next()) {
      messages = next.value.messages;
      note = next.value.note;
      if (await fits()) return true;
    }
    return false;
  };
  let refusal: unknown;
  for (let attempt = 1; ; attempt += 1) {
    if (!(await fits()) && !(await trimFurther())) throw refusal ?? contextTooLong(model.label, window);
    if (note) noteRetry({ attempt, delayMs: 0, reason: `context too long: ${note}` });
    try {
      return await send(messages);
    } catch (error) {
      if (!(error instanceof RetinueError) || error.code !== 'context-too-long' || driver.signal.aborted) throw error;
      refusal = error;
      // A little under the refused size, so trimming takes a real step rather than one message at a time.
      noteRefusedSize(session, model.label, Math.floor(requestSize(messages, prepared.tools) * 0.9));
      if (error instanceof ContextWindowRefusalError) {
        window =
          (await model.contextWindow?.()) ?? learnedWindowFrom(error.contextWindow, await estimatedRequestTokens(messages, prepared.tools));
      }
    }
  }
}

function contextTooLong(label: string, window: LearnedContextWindow | undefined): RetinueError {
  const why =
    window === undefined
      ? 'was refused as too long earlier in this run'
      : `does not fit the context window of ${window.windowTokens} tokens its endpoint stated`;
  return new ProviderError(
    'context-too-long',
    `The prompt for ${label} ${why}, and leaving out older tool results and chat messages did not make it fit. Shorten the chat or use a model with a longer context.`,
  );
}

/**
 * One model call: journaled, its whole assistant turn appended to the history and saved with the
 * round's usage before the turn is acted on. The root's turns also stream to the page through
 * `driver.replyStream`, which decides what of them may show (see reply-stream.ts). A failure
 * rejects (the caller fails closed).
 */
export async function runModelTurn(driver: InvocationDriver, prepared: PreparedTurn): Promise<ChatCompletionAssistantMessageParam> {
  const { session, model } = driver;
  const round = driver.invocation.usage.rounds + 1;
  const ids = journalIds(driver);
  session.journal.note('model-call-start', {
    ...ids,
    data: { round, model: model.label, ...(model.pageModel !== undefined ? { pageModel: model.pageModel } : {}), tools: (prepared.tools ?? []).map((tool) => (tool.type === 'function' ? tool.function.name : tool.type)) },
  });
  const offered = (prepared.tools ?? []).flatMap((tool) => (tool.type === 'function' ? [tool.function.name] : []));
  const reasoningFirst = driver.replyStream ? (await model.opensWithBareThink?.()) === true : false;
  const turnStream = driver.replyStream?.startTurn(offered, { reasoningFirst });
  const noteRetry = (retry: RetryNote) => {
    turnStream?.retry();
    session.journal.note('model-call-retry', { ...ids, data: { round, attempt: retry.attempt, delayMs: retry.delayMs, reason: retry.reason, status: retry.status } });
  };
  let result: ModelCallResult;
  try {
    result = await callWithinContext(driver, prepared, noteRetry, (messages) =>
      model.call({
        messages,
        tools: prepared.tools,
        toolChoice: prepared.toolChoice,
        sampling: driver.sampling,
        signal: driver.signal,
        // The page waits on the root: its call goes ahead of helpers' calls waiting for a connection.
        urgent: driver.invocation.kind === 'root',
        ...(turnStream
          ? { onTextDelta: turnStream.text, onReasoningDelta: turnStream.reasoning, onToolCallDelta: turnStream.toolCallDelta }
          : {}),
        onRetry: noteRetry,
      }),
    );
  } catch (error) {
    turnStream?.abandon();
    const reason = driver.signal.aborted ? abortReason(driver.signal) : error;
    session.journal.note('model-call-end', { ...ids, data: { round, ok: false, error: errorData(reason) } });
    throw reason;
  }
  const usage = {
    rounds: 1,
    promptTokens: result.usage.promptTokens,
    completionTokens: result.usage.completionTokens,
    totalTokens: result.usage.totalTokens,
    ...(result.usage.estimated === true ? { estimated: true } : {}),
  };
  turnStream?.end(toolCallsOf(result.message).length > 0, {
    content: contentText(result.message.content),
    ...(result.reasoning ? { reasoning: result.reasoning } : {}),
  });
  driver.invocation = { ...driver.invocation, usage: addUsage(driver.invocation.usage, usage) };
  session.addUsage(usage);
  session.journal.note('model-call-end', {
    ...ids,
    data: {
      round,
      ok: true,
      finishReason: result.finishReason,
      toolCalls: result.message.tool_calls?.length ?? 0,
      usage: { ...usage },
      ...(result.toolProtocol ? { toolProtocol: result.toolProtocol } : {}),
      // Another model than the start named answered (a keyed budget spent): the costs count it there.
      ...(result.answeredBy ? { model: result.answeredBy.label, ...(result.answeredBy.pageModel !== undefined ? { pageModel: result.answeredBy.pageModel } : {}) } : {}),
      // Kept for the side panel to show folded; never part of a reply or a capsule.
      ...(result.reasoning ? { reasoning: result.reasoning.slice(0, MAX_JOURNALED_REASONING) } : {}),
    },
  });
  // Saved with the call's end event in one write: the turn is stored before it is acted on. A turn
  // that only reads is stored with its results instead: made again after a restart, it changes nothing.
  if (onlyReads(result.message)) append(driver, result.message);
  else await appendAndSave(driver, result.message);
  return result.message;
}
