import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { ModelBehaviorError } from '../errors';
import { taskBriefSchema } from '../records/task';
import { defineTool } from './tool-definition';

/** The most characters a task brief may take (its JSON), so one delegation cannot flood a child. */
export const TASK_BRIEF_MAX_CHARS = 40_000;

export const agentDelegateParameters = lazySchema(() => z.strictObject({
  agentId: z.string().min(1).max(64).describe('From agent_list.'),
  task: taskBriefSchema
    .unwrap()
    .check((context) => {
      const size = JSON.stringify(context.value).length;
      if (size > TASK_BRIEF_MAX_CHARS) {
        context.issues.push({
          code: 'custom',
          input: context.value,
          message: `the task is ${size} characters long; keep it under ${TASK_BRIEF_MAX_CHARS}: write long material to a workspace file such as summaries/brief.md and tell the agent to read it as summaries/parent/brief.md`,
        });
      }
    })
    .describe('Self-contained: the agent sees nothing else.'),
  budget: z
    .strictObject({
      maxRounds: z.number().int().min(1).max(100).optional(),
      maxToolCalls: z.number().int().min(0).max(500).optional(),
    })
    .optional()
    .describe('Optional tighter limits.'),
}));

/** `agent.delegate`: start a task in the background; answers with the task's name. */
export const agentDelegateTool = defineTool({
  name: 'agent.delegate',
  description:
    'Start a task for another agent, run in the background; answers with its task name.',
  parameters: agentDelegateParameters,
  async execute(args, context) {
    if (!context.delegation) {
      throw new ModelBehaviorError('delegation-unavailable', 'You cannot delegate tasks. Do the work with your own tools.');
    }
    const answer = await context.delegation.delegate(args, { turn: context.turn, callId: context.toolCallId });
    const state =
      answer.state === 'running'
        ? 'It is working in the background now.'
        : 'It is queued and starts as soon as another task finishes.';
    return {
      content: [
        `Delegated "${args.task.title}" to ${answer.agent.name}. The task is named \`${answer.name}\`. ${state}`,
        `Its limits: ${answer.budget.maxRounds} rounds, ${answer.budget.maxToolCalls} tool calls.`,
        `Call agent_await with tasks ["${answer.name}"] to collect its result (you can delegate more first).`,
      ].join('\n'),
    };
  },
});
