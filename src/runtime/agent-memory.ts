import { chatMessageText } from '../hosts/chat-text';
import type { PromptSnapshot, SnapshotMessage } from '../hosts/prompt-snapshot';
import type { MemoryFile, MemoryVersion } from '../records/memory-version';
import type { AgentRun } from '../records/run';
import type { WorkspaceFile } from '../records/workspace-file';
import type { RunStore } from '../store/run-store';
import { agentMemoryFolder, MEMORY_FOLDER } from '../workspace/layout';
import { KeyHash } from './chat-identity';

/**
 * Agent memory, versioned by message (docs/agent-memory.md). A version is the memory of every agent
 * of a conversation as it stood after one reply, keyed by the *line key* of that reply: a hash of the
 * chat's user and assistant messages up to and including it. A run starts from the version of the
 * longest line of its own chat that has one (the reply it continues, or, after an edit, the last
 * reply before the edit), so a swipe's continuation sees its own swipe's memory and a new chat
 * starts empty. What the run's agents write under `memory/` becomes the version of its reply when the
 * reply is recorded.
 */

/** Adds one chat message to a line hash; text is trimmed, since pages trim the replies they keep. */
function addLineMessage(hash: KeyHash, role: 'user' | 'assistant', text: string): void {
  const trimmed = text.trim();
  hash.add(`${role}\u0000${trimmed.length}\u0000${trimmed}\u0001`);
}

function chatOf(messages: readonly SnapshotMessage[]): { role: 'user' | 'assistant'; text: string }[] {
  const chat: { role: 'user' | 'assistant'; text: string }[] = [];
  for (const message of messages) {
    if (message.role === 'user' || message.role === 'assistant') chat.push({ role: message.role, text: chatMessageText(message) });
  }
  return chat;
}

/** The line key of every reply in the chat (each assistant message), in order: the last is the newest. */
export function memoryLineKeys(messages: readonly SnapshotMessage[]): string[] {
  const hash = new KeyHash();
  const keys: string[] = [];
  for (const message of chatOf(messages)) {
    addLineMessage(hash, message.role, message.text);
    if (message.role === 'assistant') keys.push(hash.value());
  }
  return keys;
}

/** The line key of `reply` given after the chat of `messages`: what the next turn's chat will end its line with. */
export function replyLineKey(messages: readonly SnapshotMessage[], reply: string): string {
  const hash = new KeyHash();
  for (const message of chatOf(messages)) addLineMessage(hash, message.role, message.text);
  addLineMessage(hash, 'assistant', reply);
  return hash.value();
}

/** The version a run of this chat starts from: that of its longest line that has one, or none (start empty). */
export async function memoryToStartFrom(store: RunStore, conversationId: string, snapshot: PromptSnapshot): Promise<MemoryVersion | undefined> {
  const stored = await store.listMemoryLineKeys(conversationId);
  // A conversation that keeps no memory costs no pass over its chat.
  if (stored.size === 0) return undefined;
  const keys = memoryLineKeys(snapshot.messages);
  for (let index = keys.length - 1; index >= 0; index -= 1) {
    const key = keys[index] as string;
    if (stored.has(key)) return store.getMemoryVersion(conversationId, key);
  }
  return undefined;
}

/**
 * The files that put the memory the run starts from into its workspace (`memory/<agent-id>/...`),
 * where every agent's `memory/` view reads and writes it. Stored with the run's first step: a
 * resumed run finds the files where it left them.
 *
 * @example
 * const files = memorySeedFiles(run.id, await memoryToStartFrom(store, conversationId, snapshot), now);
 */
export function memorySeedFiles(runId: string, version: MemoryVersion | undefined, now: number): WorkspaceFile[] {
  return Object.entries(version?.agents ?? {}).flatMap(([agentId, files]) =>
    files.map((file) => ({ runId, path: `${agentMemoryFolder(agentId)}${file.path}`, content: file.content, updatedAt: now })),
  );
}

/**
 * What the attempt `runId` left of each agent's memory: the memory its reply recorded, as the user
 * may have edited or cleared it in the side panel since; without one (no reply yet, or a newer run's
 * identical reply took its version), the files in its workspace.
 */
async function memoryLeftBy(store: RunStore, runId: string): Promise<Record<string, MemoryFile[]>> {
  const versions = await store.listMemoryVersionsOfRun(runId);
  const newest = versions.sort((left, right) => right.createdAt - left.createdAt)[0];
  return newest ? newest.agents : runMemoryFiles(store, runId);
}

/**
 * A swipe or regenerate that reuses a start-of-turn helper's result (the ledger holds it for this
 * message, so the helper is not run again) takes that helper's memory as the attempt that ran it
 * left it, with the user's edits to it: the helper saw the same chat up to this message, so its
 * memory is right for this line too.
 */
export async function carryReusedHelperMemory(store: RunStore, runId: string, reused: readonly { agentId: string; fromRunId: string }[], now: number): Promise<void> {
  for (const { agentId, fromRunId } of reused) {
    const folder = agentMemoryFolder(agentId);
    const left = (await memoryLeftBy(store, fromRunId))[agentId] ?? [];
    for (const file of await store.listFiles(runId, folder)) await store.deleteFile(runId, file.path);
    for (const file of left) await store.writeFile({ runId, path: `${folder}${file.path}`, content: file.content, updatedAt: now });
  }
}

/** Every agent's memory files in the run's workspace, by agent id. */
export async function runMemoryFiles(store: RunStore, runId: string): Promise<Record<string, MemoryFile[]>> {
  const agents: Record<string, MemoryFile[]> = {};
  for (const file of await store.listFiles(runId, MEMORY_FOLDER)) {
    const rest = file.path.slice(MEMORY_FOLDER.length);
    const slash = rest.indexOf('/');
    if (slash <= 0) continue;
    const agentId = rest.slice(0, slash);
    (agents[agentId] ??= []).push({ path: rest.slice(slash + 1), content: file.content });
  }
  return agents;
}

/**
 * Records what the run's agents hold in `memory/` as the version of its reply. Called when the reply
 * is recorded (an early reply, and again at the run's end, so a helper that finished after an early
 * reply adds its writes); a run that failed, fell open or was stopped before its reply records
 * nothing, and the next turn starts from the memory this run started from. A run whose agents hold
 * no memory at all records nothing either (the next turn starts empty all the same).
 */
export async function recordMemoryVersion(store: RunStore, run: AgentRun, snapshot: PromptSnapshot, reply: string, now: number): Promise<void> {
  if (!run.chat || reply.trim() === '') return;
  const agents = await runMemoryFiles(store, run.id);
  // Nothing started from and nothing written: the next turn finds no version on its line either way,
  // so a turn of a chat that uses no memory costs no write (nor a pass over its chat).
  if (Object.keys(agents).length === 0) return;
  const lineKey = replyLineKey(snapshot.messages, reply);
  const earlier = await store.getMemoryVersion(run.chat.conversationId, lineKey);
  // The user edited this run's memory in the side panel after its early reply: the edit stands.
  if (earlier?.runId === run.id && earlier.editedAt !== undefined) return;
  await store.putMemoryVersion({
    conversationId: run.chat.conversationId,
    lineKey,
    runId: run.id,
    createdAt: earlier?.runId === run.id ? earlier.createdAt : now,
    agents,
  });
}
