import type { ChatCompletionTool, ChatCompletionToolChoiceOption } from 'openai/resources/chat/completions';
import type { PromptSnapshot } from '../hosts/prompt-snapshot';
import type { CallSampling } from '../model/model-client';
import { toProviderToolName, toToolDefinition } from '../model/tool-protocol';
import type { AgentProfile } from '../settings/schema';
import { toolRegistry } from '../tools/registry';
import { agentSampling } from './agent-sampling';
import type { InvocationDriver } from './invocation-driver';
import type { ToolName } from '../settings/tool-names';

/** What one model call is asked: the tools offered and how strongly. The history is the invocation's. */
export interface PreparedTurn {
  tools?: ChatCompletionTool[];
  toolChoice?: ChatCompletionToolChoiceOption;
}

const definitionCache = new Map<ToolName, ChatCompletionTool>();

/** Provider tool definitions for a tool surface, in its order (each converted from zod once). */
export function toolDefinitions(names: readonly ToolName[]): ChatCompletionTool[] {
  return names.map((name) => {
    let definition = definitionCache.get(name);
    if (!definition) {
      definition = toToolDefinition(toolRegistry[name]);
      definitionCache.set(name, definition);
    }
    return definition;
  });
}

/** An ordinary round: the invocation's fixed tool surface, the model free to choose. */
export function prepareRound(driver: InvocationDriver): PreparedTurn {
  return driver.policy.tools.length === 0 ? {} : { tools: toolDefinitions(driver.policy.tools) };
}

/**
 * The forced wrap-up after the cap: a child is offered only `task_return` and made to call it; the
 * root gets no tools, so its answer is text.
 */
export function prepareWrapUp(driver: InvocationDriver): PreparedTurn {
  if (driver.policy.exitPolicy === 'runFinishAllowed') return {};
  return {
    tools: toolDefinitions(['task.return']),
    toolChoice: { type: 'function', function: { name: toProviderToolName('task.return') } },
  };
}

/** Sampling from the prompt snapshot, with the profile's own preset on top (see agent-sampling.ts). */
export function samplingFor(snapshot: PromptSnapshot, profile: AgentProfile): CallSampling {
  return agentSampling(snapshot, profile).sampling;
}
