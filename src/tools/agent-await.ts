import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { ModelBehaviorError } from '../errors';
import { renderCapsuleForParent, taskNotesFolder } from '../rendering/capsule-markdown';
import { awaitingReviewLine, renderReviewedForParent } from '../rendering/review-rendering';
import { defineTool, type AwaitAnswer, type TaskView } from './tool-definition';

/** The longest one `agent.await` waits (DESIGN.md section 7). */
export const AWAIT_MAX_TIMEOUT_MS = 300_000;

export const agentAwaitParameters = lazySchema(() => z.strictObject({
  tasks: z
    .array(z.string().min(1).max(80))
    .min(1)
    .max(64)
    .optional()
    .describe('Task names; default all.'),
  mode: z
    .enum(['nextCompleted', 'allCompleted', 'statusOnly'])
    .optional()
    .describe('statusOnly does not wait.'),
  timeoutMs: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(`At most ${AWAIT_MAX_TIMEOUT_MS}; default: the tasks' own time.`),
}));

function seconds(milliseconds: number): string {
  return `${Math.round(milliseconds / 1000)} s`;
}

function otherLine(view: TaskView): string {
  if (view.alreadyDelivered) {
    return `- \`${view.name}\` — ${view.status}; you read its result before (it is in \`${taskNotesFolder(view.name)}result.md\`)`;
  }
  const awaitingReview = awaitingReviewLine(view);
  if (awaitingReview) return awaitingReview;
  if (view.status === 'cancelled') return `- \`${view.name}\` — cancelled${view.problem ? `: ${view.problem}` : ''}`;
  return `- \`${view.name}\` — ${view.status}: ${view.title}`;
}

function finishedBlock(view: TaskView): string {
  const reviewed = renderReviewedForParent(view);
  if (reviewed) return reviewed;
  if (view.capsule) return renderCapsuleForParent(view.capsule);
  return `### ${view.name} — ${view.status}\n_${view.title}_\n\n${view.problem ?? 'It ended without a result.'}`;
}

/** Renders what `agent.await` hands back: finished results first, then where the rest stand. */
export function renderAwaitAnswer(answer: AwaitAnswer, options: { statusOnly: boolean; clampNote?: string }): string {
  const parts: string[] = [];
  if (options.clampNote) parts.push(options.clampNote);
  if (answer.earlierBlocks) parts.push(...answer.earlierBlocks);
  if (answer.finished.length > 0) parts.push(answer.finished.map(finishedBlock).join('\n\n'));
  const stillWorking = answer.others.filter((view) => view.status === 'queued' || view.status === 'running' || view.review?.state === 'awaiting');
  if (answer.others.length > 0) {
    const heading = options.statusOnly ? 'Where your tasks stand:' : 'Other tasks:';
    parts.push([heading, ...answer.others.map(otherLine)].join('\n'));
  }
  // A wait a limit ended says nothing of waiting on: the limit's note follows in the same tool result.
  const waitAdvice = !answer.endedByLimit;
  if (waitAdvice && answer.timedOut && stillWorking.length > 0) {
    parts.push(
      `Waited ${seconds(answer.waitedMs)}; ${stillWorking.length === 1 ? 'this task is' : 'these tasks are'} still working. Call agent_await again to keep waiting, or agent_cancel to stop what you no longer need.`,
    );
  } else if (waitAdvice && options.statusOnly && stillWorking.length > 0) {
    parts.push('Call agent_await to wait for their results.');
  }
  if (parts.length === 0) return 'You have no delegated tasks. Start one with agent_delegate.';
  return parts.join('\n\n');
}

/** `agent.await`: collect the results of delegated tasks. */
export const agentAwaitTool = defineTool({
  name: 'agent.await',
  description:
    'Wait for delegated tasks and get their results.',
  parameters: agentAwaitParameters,
  async execute(args, context) {
    if (!context.delegation) throw new ModelBehaviorError('delegation-unavailable', 'You have no delegated tasks to wait for.');
    const mode = args.mode ?? 'allCompleted';
    const requested = args.timeoutMs;
    // Without a timeout the wait covers the tasks' own timeouts, so it does not give up before they do.
    const timeoutMs = requested === undefined ? undefined : Math.min(requested, AWAIT_MAX_TIMEOUT_MS);
    const clampNote =
      requested !== undefined && requested > AWAIT_MAX_TIMEOUT_MS
        ? `Note: timeoutMs is at most ${AWAIT_MAX_TIMEOUT_MS} (${seconds(AWAIT_MAX_TIMEOUT_MS)}); waited up to ${seconds(AWAIT_MAX_TIMEOUT_MS)} instead of ${seconds(requested)}.`
        : undefined;
    const answer = await context.delegation.await({ tasks: args.tasks, mode, timeoutMs }, context.signal);
    return {
      content: renderAwaitAnswer(answer, { statusOnly: mode === 'statusOnly', clampNote }),
      handover: { delivered: answer.finished.map((view) => view.name), announced: [] },
    };
  },
});
