import { z } from 'zod';
import { defineTool } from './tool-definition';

/** The most characters one `workspace.read` returns. */
export const WORKSPACE_READ_MAX_CHARS = 20_000;

export const workspaceReadParameters = z.strictObject({
  path: z.string().min(1).max(512).describe('The file to read, e.g. `summaries/notes.md`.'),
  offset: z.number().int().min(0).optional().describe('Character to start at (default 0); use the offset a cut-off read told you.'),
  limit: z
    .number()
    .int()
    .min(1)
    .max(WORKSPACE_READ_MAX_CHARS)
    .optional()
    .describe(`How many characters to read (default and most: ${WORKSPACE_READ_MAX_CHARS}).`),
});

/** `workspace.read`: one file of the caller's workspace, in pieces when it is long. */
export const workspaceReadTool = defineTool({
  name: 'workspace.read',
  description:
    'Read a file of your workspace. Long files come in pieces: the answer says where to continue with `offset`.',
  parameters: workspaceReadParameters,
  async execute(args, context) {
    const result = await context.workspace.read(args.path, {
      offset: args.offset ?? 0,
      limit: args.limit ?? WORKSPACE_READ_MAX_CHARS,
    });
    if (result.nextOffset === undefined && (args.offset ?? 0) === 0) return { content: result.content };
    const start = args.offset ?? 0;
    const end = result.nextOffset ?? result.totalChars;
    const more =
      result.nextOffset === undefined
        ? 'This is the end of the file.'
        : `To read on, call workspace_read with offset ${result.nextOffset}.`;
    return { content: `\`${result.path}\`, characters ${start}–${end} of ${result.totalChars}:\n\n${result.content}\n\n(${more})` };
  },
});
