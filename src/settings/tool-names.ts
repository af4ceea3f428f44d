/**
 * Canonical names of every model-facing tool a profile may list in `tools.allow`.
 * `task.return` is injected by the runtime into return-mode children and is never listed.
 * The tool registry has a test that keeps it and this list in step.
 */
export const allowableToolNames = [
  'agent.list',
  'agent.delegate',
  'agent.await',
  'agent.cancel',
  'workspace.list',
  'workspace.read',
  'workspace.write',
  'workspace.commit',
  'workspace.finish',
  'chat.read',
  'chat.search',
  'chat.read_messages',
  // Lore tools: offered on SillyTavern only (invocation-policy.ts).
  'lore.list_activated',
  'lore.search',
  'lore.read',
  'lore.propose',
] as const;
export type AllowableToolName = (typeof allowableToolNames)[number];

/**
 * Every canonical tool name: what a profile may list, plus the runtime-only `task.return`. It lives
 * here, beside the list, so the runtime and the tools both import it without importing each other.
 */
export type ToolName = AllowableToolName | 'task.return';
