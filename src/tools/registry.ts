import type { ToolName } from '../settings/tool-names';
import { agentAwaitTool } from './agent-await';
import { agentCancelTool } from './agent-cancel';
import { agentDelegateTool } from './agent-delegate';
import { agentListTool } from './agent-list';
import { chatReadTool } from './chat-read';
import { chatReadMessagesTool } from './chat-read-messages';
import { chatSearchTool } from './chat-search';
import { loreListActivatedTool } from './lore-list-activated';
import { loreProposeTool } from './lore-propose';
import { loreReadTool } from './lore-read';
import { loreSearchTool } from './lore-search';
import { taskReturnTool } from './task-return';
import type { Tool } from './tool-definition';
import { workspaceCommitTool } from './workspace-commit';
import { workspaceFinishTool } from './workspace-finish';
import { workspaceListTool } from './workspace-list';
import { workspaceReadTool } from './workspace-read';
import { workspaceWriteTool } from './workspace-write';

/** Every model-facing tool, by canonical name. A test keeps this in step with `src/settings/tool-names.ts`. */
export const toolRegistry: Readonly<Record<ToolName, Tool>> = {
  'agent.list': agentListTool,
  'agent.delegate': agentDelegateTool,
  'agent.await': agentAwaitTool,
  'agent.cancel': agentCancelTool,
  'task.return': taskReturnTool,
  'workspace.list': workspaceListTool,
  'workspace.read': workspaceReadTool,
  'workspace.write': workspaceWriteTool,
  'workspace.commit': workspaceCommitTool,
  'workspace.finish': workspaceFinishTool,
  'chat.read': chatReadTool,
  'chat.search': chatSearchTool,
  'chat.read_messages': chatReadMessagesTool,
  'lore.list_activated': loreListActivatedTool,
  'lore.search': loreSearchTool,
  'lore.read': loreReadTool,
  'lore.propose': loreProposeTool,
};
