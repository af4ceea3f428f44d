import { z } from 'zod';
import { defineTool } from './tool-definition';

export const workspaceFinishParameters = z.strictObject({});

/** `workspace.finish`: the root ends the run without a further reply. */
export const workspaceFinishTool = defineTool({
  name: 'workspace.finish',
  description:
    'End your work now without writing a reply of your own. To reply with a file, use workspace_commit instead; to reply with text, just answer without calling a tool.',
  parameters: workspaceFinishParameters,
  async execute() {
    return { content: 'Finished.', ending: { kind: 'finish' } };
  },
});
