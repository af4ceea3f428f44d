import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { messageText, type ScriptedModelServer, type ScriptedRequest, type ScriptedTurn } from '../../support/scripted-model-server';

/** One task the scripted root delegates, and what the scripted child answers. */
export interface ScriptedDelegation {
  /** The agent to delegate to (a profile id). */
  agentId: string;
  /** A phrase of that agent's system prompt, which tells its requests apart. */
  systemMarker: string;
  title: string;
  objective: string;
  /** What the child returns as its summary; the root's reply quotes it when agent_await delivered it. */
  finding: string;
}

/** The two built-in story agents, as `npm run demo` and the main e2e scenario use them. */
export const defaultDelegations: readonly ScriptedDelegation[] = [
  {
    agentId: 'continuity-checker',
    systemMarker: 'You are a continuity checker',
    title: 'Check the lighthouse scene for continuity',
    objective: 'Check the planned lighthouse scene against what the story has established so far.',
    finding: 'Continuity: the keeper lost his lantern in the storm, so the tower must be dark when Mara arrives.',
  },
  {
    agentId: 'scene-critic',
    systemMarker: 'You are a scene critic',
    title: 'Critique the lighthouse scene plan',
    objective: 'Critique the plan for the lighthouse scene: stakes, tension, and what it leaves the user to do.',
    finding: 'Critique: end on the knock at the door so the user decides whether Mara opens it.',
  },
];

export interface DelegatingRootOptions {
  delegations?: readonly ScriptedDelegation[];
  /** Builds the root's final reply from the findings agent_await delivered (in delegation order). */
  reply?: (deliveredFindings: string[]) => string;
  /** Reasoning text the root's final turn carries (shown apart by pages that render it). */
  reasoning?: string;
  /** Delay before every scripted answer (so a person can watch the side panel). */
  delayMs?: number;
  /** Writes the final reply slowly, as a model does: `pieces` deltas, `delayMs` apart. */
  replySlowly?: { pieces: number; delayMs: number };
  /** The text the root writes beside its delegate calls (default: a one-sentence preamble). */
  delegatingContent?: string;
  /** The text the root writes beside its await call (default: none). */
  awaitingContent?: string;
}

const defaultReply = (findings: string[]) =>
  [
    'The storm has passed. Mara climbs the last dunes toward the lighthouse; its tower is dark.',
    ...(findings.length > 0 ? ['', 'What the retinue found:', ...findings.map((finding) => `- ${finding}`)] : []),
    '',
    'Someone knocks at the door below. Do you open it?',
  ].join('\n');

/**
 * Scripts a root agent (requests offered `agent_delegate`) that delegates the given tasks in one
 * turn, awaits them all with `agent_await`, then answers with a reply that quotes each child's finding
 * that reached it; and scripts each child (requests offered `task_return` whose system prompt holds
 * its marker) to return its finding at once. Requests are told apart by content, not arrival order.
 *
 * @example
 * const model = await startScriptedModelServer();
 * scriptDelegatingRoot(model);
 * // ... a chat turn on a page with Retinue switched on ...
 * expect(fixtureState.lastReply).toContain(defaultDelegations[0].finding);
 */
export function scriptDelegatingRoot(model: ScriptedModelServer, options: DelegatingRootOptions = {}): void {
  const delegations = options.delegations ?? defaultDelegations;
  const buildReply = options.reply ?? defaultReply;
  const delayMs = options.delayMs;

  model.script((request) => {
    if (!request.toolNames.includes('task_return')) return undefined;
    const delegation = delegations.find((candidate) => request.systemText.includes(candidate.systemMarker));
    if (!delegation) return undefined;
    return withDelay(
      {
        toolCalls: [
          {
            name: 'task_return',
            arguments: { summary: delegation.finding, status: 'completed', findings: [delegation.finding], confidence: 'high' },
          },
        ],
      },
      delayMs,
    );
  });

  model.script((request) => {
    if (!request.toolNames.includes('agent_delegate')) return undefined;
    const called = toolsCalledSoFar(request.body.messages);
    if (!called.includes('agent_delegate')) {
      return withDelay(
        {
          content: options.delegatingContent ?? 'I will ask the retinue first.',
          toolCalls: delegations.map((delegation) => ({
            name: 'agent_delegate',
            arguments: { agentId: delegation.agentId, task: { title: delegation.title, objective: delegation.objective } },
          })),
        },
        delayMs,
      );
    }
    if (!called.includes('agent_await')) {
      const content = options.awaitingContent === undefined ? {} : { content: options.awaitingContent };
      return withDelay({ ...content, toolCalls: [{ name: 'agent_await', arguments: { mode: 'allCompleted' } }] }, delayMs);
    }
    const toolResults = toolResultText(request);
    const delivered = delegations.map((delegation) => delegation.finding).filter((finding) => toolResults.includes(finding));
    const slowly = options.replySlowly ? { slowly: options.replySlowly } : {};
    return withDelay({ content: buildReply(delivered), reasoning: options.reasoning, ...slowly }, delayMs);
  });
}

function withDelay(turn: ScriptedTurn, delayMs: number | undefined): ScriptedTurn {
  return delayMs === undefined ? turn : { ...turn, delayMs };
}

/** Provider names of every tool the assistant called in the history, in order. */
function toolsCalledSoFar(messages: ChatCompletionMessageParam[]): string[] {
  return messages.flatMap((message) =>
    message.role === 'assistant' && message.tool_calls
      ? message.tool_calls.flatMap((call) => (call.type === 'function' ? [call.function.name] : []))
      : [],
  );
}

function toolResultText(request: ScriptedRequest): string {
  return request.body.messages
    .filter((message) => message.role === 'tool')
    .map((message) => messageText(message))
    .join('\n');
}
