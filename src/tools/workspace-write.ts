import { z } from 'zod';
import { defineTool } from './tool-definition';

export const workspaceWriteParameters = z.strictObject({
  path: z.string().min(1).max(512).describe('The file to write, e.g. `summaries/notes.md` or `scratch/draft.md`.'),
  content: z.string().describe('The text to write.'),
  mode: z
    .enum(['replace', 'append'])
    .optional()
    .describe('`replace` (the default) overwrites the file; `append` adds to its end.'),
});

/** `workspace.write`: a note or draft in the caller's workspace. */
export const workspaceWriteTool = defineTool({
  name: 'workspace.write',
  description:
    'Write a file in your workspace: notes worth keeping go in `summaries/`, drafts in `scratch/`. Creates the file when it does not exist.',
  parameters: workspaceWriteParameters,
  async execute(args, context) {
    const mode = args.mode ?? 'replace';
    const written = await context.workspace.write(args.path, args.content, mode);
    const verb = mode === 'append' ? 'Appended to' : 'Wrote';
    return { content: `${verb} \`${written.path}\`; it now holds ${written.totalChars} characters.` };
  },
});
