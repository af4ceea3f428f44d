import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { ModelBehaviorError } from '../errors';
import { defineTool } from './tool-definition';

export const agentCancelParameters = lazySchema(() => z.strictObject({
  tasks: z.array(z.string().min(1).max(80)).min(1).max(64).describe('Task names.'),
}));

/** `agent.cancel`: stop tasks the caller started. */
export const agentCancelTool = defineTool({
  name: 'agent.cancel',
  description: 'Stop delegated tasks you no longer need.',
  parameters: agentCancelParameters,
  async execute(args, context) {
    if (!context.delegation) throw new ModelBehaviorError('delegation-unavailable', 'You have no delegated tasks to cancel.');
    const views = await context.delegation.cancel(args.tasks);
    const lines = views.map((view) => {
      if (view.status === 'cancelled') return `- \`${view.name}\` — cancelled`;
      return `- \`${view.name}\` had already ${view.status === 'failed' ? 'failed' : 'finished'}; its result stays available through agent_await.`;
    });
    // The caller knows the tasks it cancelled ended: no "meanwhile finished" line for them later.
    const cancelled = views.filter((view) => view.status === 'cancelled').map((view) => view.name);
    return { content: lines.join('\n'), handover: { delivered: [], announced: cancelled } };
  },
});
