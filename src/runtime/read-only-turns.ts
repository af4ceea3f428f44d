import type { ChatCompletionAssistantMessageParam } from 'openai/resources/chat/completions';
import { toCanonicalToolName, toolCallsOf } from '../model/tool-protocol';
import { toolRegistry } from '../tools/registry';

/** Whether a tool, by the name the provider uses, only reads (tool-definition.ts, `readOnly`). */
export function isReadOnlyTool(providerName: string): boolean {
  const name = toCanonicalToolName(providerName);
  return Object.hasOwn(toolRegistry, name) && toolRegistry[name as keyof typeof toolRegistry].readOnly === true;
}

/**
 * Whether an assistant turn calls tools and every call only reads. Such a turn is stored with its
 * results in one step rather than before them: a restart before that step asks the model again,
 * and calls that only read leave nothing behind to repeat or undo (a round costs one write, not two).
 */
export function onlyReads(message: ChatCompletionAssistantMessageParam): boolean {
  const calls = toolCallsOf(message);
  return calls.length > 0 && calls.every((call) => isReadOnlyTool(call.name));
}
