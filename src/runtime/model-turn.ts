import type { ChatCompletionAssistantMessageParam } from 'openai/resources/chat/completions';
import { RetinueError } from '../errors';
import { toolCallsOf } from '../model/tool-protocol';
import { addUsage } from '../records/usage';
import { appendAndSave, historyOf, journalIds, type InvocationDriver } from './invocation-driver';
import { abortReason } from './run-signals';
import type { PreparedTurn } from './turn-preparation';

function errorData(error: unknown): { code: string; message: string } {
  if (error instanceof RetinueError) return error.toJSON();
  return { code: 'unexpected', message: error instanceof Error ? error.message : String(error) };
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
    data: { round, model: model.label, tools: (prepared.tools ?? []).map((tool) => (tool.type === 'function' ? tool.function.name : tool.type)) },
  });
  const turnStream = driver.replyStream?.startTurn((prepared.tools?.length ?? 0) > 0);
  let result;
  try {
    result = await model.call({
      messages: historyOf(driver.invocation),
      tools: prepared.tools,
      toolChoice: prepared.toolChoice,
      sampling: driver.sampling,
      signal: driver.signal,
      ...(turnStream
        ? { onTextDelta: turnStream.text, onReasoningDelta: turnStream.reasoning, onToolCallDelta: turnStream.toolCallDelta }
        : {}),
      onRetry: (retry) => {
        turnStream?.retry();
        session.journal.note('model-call-retry', { ...ids, data: { round, attempt: retry.attempt, delayMs: retry.delayMs, reason: retry.reason, status: retry.status } });
      },
    });
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
  };
  turnStream?.end(toolCallsOf(result.message).length > 0);
  driver.invocation = { ...driver.invocation, usage: addUsage(driver.invocation.usage, usage) };
  session.addUsage(usage);
  await appendAndSave(driver, result.message);
  session.journal.note('model-call-end', {
    ...ids,
    data: {
      round,
      ok: true,
      finishReason: result.finishReason,
      toolCalls: result.message.tool_calls?.length ?? 0,
      usage: { ...usage },
    },
  });
  return result.message;
}
