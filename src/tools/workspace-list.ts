import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { normalizeWorkspacePath } from '../workspace/paths';
import type { WorkspaceEntry } from '../workspace/workspace-view';
import { defineTool } from './tool-definition';

export const workspaceListParameters = lazySchema(() => z.strictObject({
  path: z.string().max(512).optional().describe('A folder to list, e.g. `summaries/`; leave out to list the top of your workspace.'),
}));

/** Said when an agent lists its memory (the description stays short: it is sent with every request). */
const MEMORY_NOTE = 'Files in memory/ are kept for your next turns in this conversation: keep there what you need to remember, and keep it short.';

/** Whether a listing shows the caller's memory/: the folder itself, or the top that holds it. */
function showsMemory(path: string | undefined, entries: readonly WorkspaceEntry[]): boolean {
  const [top] = normalizeWorkspacePath(path ?? '').segments;
  return top === 'memory' || (top === undefined && entries.some((entry) => entry.path === 'memory/'));
}

/** `workspace.list`: the files and folders the caller can see. */
export const workspaceListTool = defineTool({
  name: 'workspace.list',
  description:
    'List the files and folders of your workspace (or of one folder in it), with their sizes in characters. Use it to find notes you or other agents left.',
  parameters: workspaceListParameters,
  readOnly: true,
  async execute(args, context) {
    const entries = await context.workspace.list(args.path);
    const where = args.path ? `\`${args.path}\`` : 'your workspace';
    const aboutMemory = showsMemory(args.path, entries) ? `\n${MEMORY_NOTE}` : '';
    if (entries.length === 0) return { content: `Nothing in ${where} yet.${aboutMemory}` };
    const lines = entries.map((entry) =>
      entry.kind === 'folder' ? `- \`${entry.path}\` (folder)` : `- \`${entry.path}\` (${entry.size ?? 0} characters)`,
    );
    return { content: [`Contents of ${where}:`, ...lines].join('\n') + aboutMemory };
  },
});
