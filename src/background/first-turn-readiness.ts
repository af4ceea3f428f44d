import { bridgeToBackgroundMessageSchema } from '../messaging/run-port-messages';
import { promptSnapshotSchema } from '../hosts/prompt-snapshot';
import { agentInvocationSchema, chatMessageSchema } from '../records/invocation';
import { invocationStateSchema } from '../records/invocation-state';
import { historyMessageSchema } from '../records/history-message';
import { journalEventSchema } from '../records/journal';
import { agentRunSchema } from '../records/run';
import { workspaceFileSchema } from '../records/workspace-file';
import { toolDefinitions } from '../runtime/turn-preparation';
import type { ToolName } from '../settings/tool-names';
import { toolRegistry } from '../tools/registry';

/**
 * Builds what a started background's first turn would build on its way to the model call: the
 * schemas it parses and stores through (each built on first use, docs/performance.md) and the tools'
 * definitions for the model (converted from zod once). The warm-up calls it while the user is still
 * writing; the turn then finds them built. Parsing nothing builds a schema and fails at once.
 */
export function buildForFirstTurn(): void {
  bridgeToBackgroundMessageSchema();
  for (const schema of [promptSnapshotSchema, agentRunSchema, journalEventSchema, agentInvocationSchema, invocationStateSchema, chatMessageSchema, historyMessageSchema, workspaceFileSchema]) {
    schema.safeParse(undefined);
  }
  toolDefinitions(Object.keys(toolRegistry) as ToolName[]);
}
