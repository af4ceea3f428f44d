import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { defineTool } from './tool-definition';

/** The most characters one `workspace.read` returns. */
export const WORKSPACE_READ_MAX_CHARS = 20_000;

export const workspaceReadParameters = lazySchema(() => z.strictObject({
  path: z.string().min(1).max(512).describe('e.g. summaries/notes.md'),
  offset: z.number().int().min(0).optional(),
  limit: z
    .number()
    .int()
    .min(1)
    .max(WORKSPACE_READ_MAX_CHARS)
    .optional()
    .describe(`Most ${WORKSPACE_READ_MAX_CHARS}.`),
}));

/** `workspace.read`: one file of the caller's workspace, in pieces when it is long. */
export const workspaceReadTool = defineTool({
  name: 'workspace.read',
  description:
    'Read a workspace file, in pieces when long (continue at the `offset` given).',
  parameters: workspaceReadParameters,
  readOnly: true,
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
