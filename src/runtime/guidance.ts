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
 * The pending notes whose message the history does not hold yet. Messages are counted, not just
 * looked up, so a second note in the same words as one applied earlier still goes in.
 */
function notesNotInHistory(driver: InvocationDriver, pending: readonly GuidanceNote[]): GuidanceNote[] {
  const unclaimed = new Map<string, number>();
  for (const message of driver.invocation.messages) {
    if (message.role === 'user' && typeof message.content === 'string') unclaimed.set(message.content, (unclaimed.get(message.content) ?? 0) + 1);
  }
  const claim = (text: string): boolean => {
    const count = unclaimed.get(text) ?? 0;
    if (count > 0) unclaimed.set(text, count - 1);
    return count > 0;
  };
  // Notes applied before hold their messages; the pending ones come after them in the history.
  for (const note of driver.session.run.guidance ?? []) if (note.invocationId === driver.invocation.id && note.appliedAt !== undefined) claim(noteMessageText(note.text));
  return pending.filter((note) => !claim(noteMessageText(note.text)));
}

/**
 * Before an invocation's next model request (an ordinary round, the one after a nudge, or the
 * wrap-up): its notes not applied yet become user messages at the end of its history (saved first),
 * then are marked applied on the run record with that call's round. A note whose message the history
 * already holds (a stop came between the two writes) is only marked.
 */
export async function applyGuidance(driver: InvocationDriver): Promise<void> {
  const { session } = driver;
  const pending = (session.run.guidance ?? []).filter((note) => note.invocationId === driver.invocation.id && note.appliedAt === undefined);
  if (pending.length === 0) return;
  const missing = notesNotInHistory(driver, pending);
  if (missing.length > 0) await appendAndSave(driver, ...missing.map((note) => ({ role: 'user' as const, content: noteMessageText(note.text) })));
  const now = session.now();
  const round = driver.invocation.usage.rounds + 1;
  const applied = new Set(pending.map((note) => note.id));
  session.run = { ...session.run, guidance: (session.run.guidance ?? []).map((note) => (applied.has(note.id) ? { ...note, appliedAt: now, appliedRound: round } : note)) };
  await session.store.putRun(session.run);
  for (const note of pending) session.journal.note('guidance-applied', { ...journalIds(driver), data: { noteId: note.id, round } });
}
