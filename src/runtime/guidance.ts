/**
 * Guidance (issue 25 item 3): a note the user sends from the side panel to the root or to a running
 * task goes into that invocation's next model request as a user message, "Note from the user: …",
 * and never into the page's chat. Sent notes are stored on the run record at once and marked applied
 * with the request that carries them, so a worker stop in between loses none and repeats none.
 */
import { GUIDANCE_MAX_NOTES, guidanceRequestSchema, type GuidanceNote, type GuidanceOutcome } from '../records/guidance-note';
import { appendAndSave, journalIds, type InvocationDriver } from './invocation-driver';
import type { RunSession } from './run-session';

/** The note as the model reads it: the user speaking to this agent. */
export function noteMessageText(text: string): string {
  return `Note from the user: ${text}`;
}

function refused(code: string, message: string): GuidanceOutcome {
  return { ok: false, code, message };
}

/** Which invocation a note is for, or why it cannot reach one now. */
function targetOf(session: RunSession, taskId: string | undefined): { invocationId: string } | GuidanceOutcome {
  if (taskId === undefined) {
    if (session.run.repliedAt !== undefined || session.signal.aborted) return refused('guidance-root-done', 'The writer has already replied this turn, so a note cannot reach it. Send it to a helper still working, or write it in the chat.');
    return { invocationId: session.run.rootInvocationId };
  }
  const task = session.tasks.get(taskId);
  if (!task) return refused('guidance-task-unknown', 'This run has no such task. Reload the side panel and pick a task from the list.');
  if (task.status !== 'running' && task.status !== 'queued') return refused('guidance-task-ended', `The task ${task.workspaceKey} has ended, so a note cannot reach it any more.`);
  return { invocationId: task.childInvocationId };
}

/** Stores a note for its invocation's next model request; refuses (with what to do) when it cannot reach one. */
export async function sendGuidance(session: RunSession, request: unknown): Promise<GuidanceOutcome> {
  const parsed = guidanceRequestSchema.safeParse(request);
  if (!parsed.success) return refused('guidance-invalid', `The note was not sent: ${parsed.error.issues[0]?.message ?? 'it is not a valid note'}.`);
  const target = targetOf(session, parsed.data.taskId);
  if ('ok' in target) return target;
  const notes = session.run.guidance ?? [];
  if (notes.length >= GUIDANCE_MAX_NOTES) return refused('guidance-full', `This run already holds ${GUIDANCE_MAX_NOTES} notes, the most one run keeps. Write what else you want in the chat.`);
  const note: GuidanceNote = {
    id: session.environment.newId(),
    invocationId: target.invocationId,
    ...(parsed.data.taskId !== undefined ? { taskId: parsed.data.taskId } : {}),
    text: parsed.data.text,
    sentAt: session.now(),
  };
  session.run = { ...session.run, guidance: [...notes, note] };
  await session.store.putRun(session.run);
  session.journal.note('guidance-sent', { invocationId: note.invocationId, ...(note.taskId ? { taskId: note.taskId } : {}), data: { noteId: note.id, text: note.text } });
  return { ok: true, noteId: note.id };
}

/**
 * Before an invocation's next model request: its notes not applied yet become user messages at the
 * end of its history (saved first), then are marked applied on the run record. A note whose message
 * the history already holds (a stop came between the two writes) is only marked.
 */
export async function applyGuidance(driver: InvocationDriver): Promise<void> {
  const { session } = driver;
  const pending = (session.run.guidance ?? []).filter((note) => note.invocationId === driver.invocation.id && note.appliedAt === undefined);
  if (pending.length === 0) return;
  const present = new Set(driver.invocation.messages.filter((message) => message.role === 'user' && typeof message.content === 'string').map((message) => message.content as string));
  const missing = pending.filter((note) => !present.has(noteMessageText(note.text)));
  if (missing.length > 0) await appendAndSave(driver, ...missing.map((note) => ({ role: 'user' as const, content: noteMessageText(note.text) })));
  const now = session.now();
  const applied = new Set(pending.map((note) => note.id));
  session.run = { ...session.run, guidance: (session.run.guidance ?? []).map((note) => (applied.has(note.id) ? { ...note, appliedAt: now } : note)) };
  await session.store.putRun(session.run);
  const round = driver.invocation.usage.rounds + 1;
  for (const note of pending) session.journal.note('guidance-applied', { ...journalIds(driver), data: { noteId: note.id, round } });
}
