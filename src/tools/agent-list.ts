import { z } from 'zod';
import { defineTool } from './tool-definition';

export const agentListParameters = z.strictObject({});

/** `agent.list`: the agents the caller may delegate to, described for agents. */
export const agentListTool = defineTool({
  name: 'agent.list',
  description:
    'The agents you can delegate to and what each is good for.',
  parameters: agentListParameters,
  readOnly: true,
  async execute(_args, context) {
    const delegation = context.delegation;
    const agents = delegation?.agents() ?? [];
    if (!delegation || agents.length === 0) return { content: 'There are no agents you can delegate to.' };
    const lines = agents.map((agent) => `- \`${agent.id}\` — **${agent.name}**: ${agent.description.replace(/\s+/g, ' ').trim()}`);
    const left = delegation.tasksLeft();
    const capacity = left === 0 ? 'You cannot start more tasks in this run.' : `You can start ${left} more task${left === 1 ? '' : 's'} in this run.`;
    return { content: ['Agents you can delegate to:', ...lines, '', capacity].join('\n') };
  },
});
