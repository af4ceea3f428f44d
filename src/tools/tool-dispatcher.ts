import type { z } from 'zod';
import { CancelledError, HostContractError, RetinueError } from '../errors';
import { parseToolArguments, toCanonicalToolName, toProviderToolName, type ToolCallRequest } from '../model/tool-protocol';
import type { ToolName } from '../settings/tool-names';
import { toolRegistry } from './registry';
import type { InvocationEnding, TaskHandover, ToolContext, ToolLookup } from './tool-definition';

export interface DispatchInput {
  call: ToolCallRequest;
  /** The invocation's fixed tool surface (canonical names). */
  surface: readonly ToolName[];
  context: ToolContext;
  /**
   * Set when a limit refuses counted calls now (the tool-call cap): what such a call gets instead of
   * running. `task.return` never counts, so it is never refused.
   */
  refusal?: string;
  /** Tools the invocation's profile lists but it is not offered, and why (e.g. the delegation depth limit). */
  withheld?: { tools: readonly ToolName[]; reason: string };
}

export interface DispatchResult {
  /** Canonical name when the call named a known tool, else the name the model wrote. */
  toolName: string;
  /** The tool result the model reads, mistakes included. */
  content: string;
  ending?: InvocationEnding;
  /** Whether this call counts against `maxToolCalls`. */
  counts: boolean;
  /** The call was not run because a limit refused it (`refusal`). */
  refused: boolean;
  /** What went wrong, for the journal (the model reads `content`). */
  problem?: { code: string; message: string };
  /** Tasks this result hands over, to record with it. */
  handover?: TaskHandover;
  /** What the call looked up, for the journal. */
  lookup?: ToolLookup;
}

function isToolName(name: string): name is ToolName {
  return Object.hasOwn(toolRegistry, name);
}

function unavailable(call: ToolCallRequest, surface: readonly ToolName[], withheld: DispatchInput['withheld']): string {
  const available = surface.map(toProviderToolName).join(', ');
  const canonical = toCanonicalToolName(call.name);
  if (withheld && isToolName(canonical) && withheld.tools.includes(canonical)) return `${call.name} is not available to you. ${withheld.reason} Your tools: ${available}.`;
  const hint = surface.includes('task.return') ? ' To finish your task, call task_return.' : '';
  return `There is no tool '${call.name}' you can call. Your tools: ${available}.${hint}`;
}

function describeSchemaIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 8)
    .map((issue) => `${issue.path.length === 0 ? '(the arguments)' : issue.path.join('.')}: ${issue.message}`)
    .join('; ');
}

function mistake(toolName: string, code: string, content: string, counts: boolean): DispatchResult {
  return { toolName, content, counts, refused: false, problem: { code, message: content } };
}

/**
 * Runs one tool call of a model turn. Every model mistake (unknown or unavailable tool, bad JSON,
 * arguments that fail the schema, a tool refusing its input) comes back as the tool's result with
 * the fix in words; no retry, no abort. Storage failures and cancellation are thrown.
 */
export async function dispatchToolCall(input: DispatchInput): Promise<DispatchResult> {
  const { call, surface, context } = input;
  const canonical = toCanonicalToolName(call.name);
  const available = isToolName(canonical) && surface.includes(canonical);
  // Only an available `task.return` is free: a call to a tool that does not exist counts like any
  // other, so a model cannot loop on unknown names past its budget.
  const counts = !(available && canonical === 'task.return');
  if (counts && input.refusal !== undefined) {
    const content = input.refusal;
    return { toolName: available ? canonical : call.name, content, counts: false, refused: true, problem: { code: 'tool-budget-spent', message: content } };
  }
  if (!available) return mistake(call.name, 'tool-unavailable', unavailable(call, surface, input.withheld), true);
  const parsed = parseToolArguments(canonical, call.arguments);
  if (!parsed.ok) return mistake(canonical, 'tool-arguments-json', parsed.message, counts);
  const tool = toolRegistry[canonical];
  const validated = tool.parameters.safeParse(parsed.value);
  if (!validated.success) {
    const content = `The arguments of ${call.name} did not match its parameters: ${describeSchemaIssues(validated.error)}. Fix them and call ${call.name} again.`;
    return mistake(canonical, 'tool-arguments-schema', content, counts);
  }
  try {
    const outcome = await tool.execute(validated.data, context);
    return { toolName: canonical, content: outcome.content, ending: outcome.ending, counts, refused: false, handover: outcome.handover, lookup: outcome.lookup };
  } catch (error) {
    if (error instanceof HostContractError || error instanceof CancelledError) throw error;
    if (context.signal.aborted) throw error;
    if (error instanceof RetinueError) return mistake(canonical, error.code, error.message, counts);
    const message = error instanceof Error ? error.message : String(error);
    return mistake(canonical, 'tool-failed', `${call.name} failed: ${message}`, counts);
  }
}
