import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import type { WorkspaceView } from '../workspace/workspace-view';
import { defineTool } from './tool-definition';

export const workspaceCommitParameters = lazySchema(() => z.strictObject({
  path: z.string().min(1).max(512).describe('The file whose text is your reply, e.g. `output/reply.md`.'),
}));

/** Reads a whole file through a view, piece by piece. */
export async function readWholeFile(workspace: WorkspaceView, path: string, signal: AbortSignal): Promise<string> {
  let content = '';
  let offset: number | undefined = 0;
  while (offset !== undefined) {
    signal.throwIfAborted();
    const piece = await workspace.read(path, { offset });
    content += piece.content;
    offset = piece.nextOffset !== undefined && piece.nextOffset > offset ? piece.nextOffset : undefined;
  }
  return content;
}

/** `workspace.commit`: the root sends a workspace file as its reply and ends the run. */
export const workspaceCommitTool = defineTool({
  name: 'workspace.commit',
  description:
    'Send the text of a workspace file as your reply in the chat, exactly as it is, and end your work. Write the file first (e.g. `output/reply.md`).',
  parameters: workspaceCommitParameters,
  async execute(args, context) {
    const text = await readWholeFile(context.workspace, args.path, context.signal);
    return { content: `Sent \`${args.path}\` as the reply.`, ending: { kind: 'reply', text } };
  },
});
