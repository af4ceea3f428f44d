import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { defineTool } from './tool-definition';

export const workspaceWriteParameters = lazySchema(() => z.strictObject({
  path: z.string().min(1).max(512).describe('e.g. summaries/notes.md'),
  content: z.string(),
  mode: z
    .enum(['replace', 'append'])
    .optional()
    .describe('Default replace.'),
}));

/** `workspace.write`: a note or draft in the caller's workspace. */
export const workspaceWriteTool = defineTool({
  name: 'workspace.write',
  description:
    'Write a file: notes in summaries/, drafts in scratch/, memory/ kept for this chat.',
  parameters: workspaceWriteParameters,
  async execute(args, context) {
    const mode = args.mode ?? 'replace';
    const written = await context.workspace.write(args.path, args.content, mode);
    const verb = mode === 'append' ? 'Appended to' : 'Wrote';
    return { content: `${verb} \`${written.path}\`; it now holds ${written.totalChars} characters.` };
  },
});
