import { z } from 'zod';
import { defineTool } from './tool-definition';

export const workspaceListParameters = z.strictObject({
  path: z.string().max(512).optional().describe('A folder to list, e.g. `summaries/`; leave out to list the top of your workspace.'),
});

/** `workspace.list`: the files and folders the caller can see. */
export const workspaceListTool = defineTool({
  name: 'workspace.list',
  description:
    'List the files and folders of your workspace (or of one folder in it), with their sizes in characters. Use it to find notes you or other agents left; memory/ holds what you kept from earlier turns of this conversation.',
  parameters: workspaceListParameters,
  async execute(args, context) {
    const entries = await context.workspace.list(args.path);
    const where = args.path ? `\`${args.path}\`` : 'your workspace';
    if (entries.length === 0) return { content: `Nothing in ${where} yet.` };
    const lines = entries.map((entry) =>
      entry.kind === 'folder' ? `- \`${entry.path}\` (folder)` : `- \`${entry.path}\` (${entry.size ?? 0} characters)`,
    );
    return { content: [`Contents of ${where}:`, ...lines].join('\n') };
  },
});
