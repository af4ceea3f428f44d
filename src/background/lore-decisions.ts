import { loreChangeSchema, type LoreChange, type LoreSaveAnswer } from '../messaging/lore-messages';
import type { JournalEventOfType } from '../records/journal';
import type { RunStore } from '../store/run-store';

export type LoreDecision = 'apply' | 'discard';
export type LoreDecisionOutcome = { ok: true } | { ok: false; code: string; message: string };

export interface LoreDecisionOptions {
  store: RunStore;
  runId: string;
  proposalId: string;
  decision: LoreDecision;
  /** Whether Retinue is switched on for the run's site now: a site switched off is not written to. */
  isSiteOn(origin: string): Promise<boolean>;
  /** Writes the change through a page of the run's site; undefined: no page answered. */
  save(origin: string, change: LoreChange): Promise<LoreSaveAnswer | undefined>;
  now?: () => number;
}

const SAVE_REFUSALS: Record<string, string> = {
  'lorebooks-unavailable': 'The SillyTavern page has no lorebooks to write to. Open the chat in SillyTavern and try again.',
  'book-missing': 'SillyTavern has no lorebook named “{book}” (any more). Create it again in SillyTavern, or discard this proposal.',
  'entry-missing': 'The lorebook “{book}” has no entry #{uid} any more. Discard this proposal, or add the entry again in SillyTavern.',
  'save-failed': 'SillyTavern could not save the lorebook “{book}”. Check that SillyTavern is running and try again.',
};

/**
 * The side panel's Apply or Discard on a lore proposal. Apply writes the entry through the page's
 * `saveWorldInfo` and records which book and entry; Discard records the decision and writes nothing.
 * A proposal is decided once; the decision is a journal event on the run (`lore-proposal-end`).
 */
export async function decideLoreProposal(options: LoreDecisionOptions): Promise<LoreDecisionOutcome> {
  const { store, runId, proposalId } = options;
  const run = await store.getRun(runId);
  if (!run) return { ok: false, code: 'lore-run-missing', message: 'That run is no longer stored, so its lore proposal cannot be applied.' };
  const journal = await store.readJournal(runId);
  const proposal = journal.find((event): event is JournalEventOfType<'lore-proposal'> => event.type === 'lore-proposal' && event.data.proposalId === proposalId);
  if (!proposal) return { ok: false, code: 'lore-proposal-missing', message: 'That lore proposal is not in this run any more; reload the side panel.' };
  if (journal.some((event) => event.type === 'lore-proposal-end' && event.data.proposalId === proposalId)) {
    return { ok: false, code: 'lore-proposal-decided', message: 'That lore proposal was already applied or discarded.' };
  }
  const time = options.now?.() ?? Date.now();
  if (options.decision === 'discard') {
    await store.appendJournal({ runId, type: 'lore-proposal-end', time, ...(proposal.invocationId ? { invocationId: proposal.invocationId } : {}), ...(proposal.taskId ? { taskId: proposal.taskId } : {}), data: { proposalId, state: 'discarded' } });
    return { ok: true };
  }
  const change = loreChangeSchema.safeParse({ book: proposal.data.book, uid: proposal.data.uid, keys: proposal.data.keys, content: proposal.data.content });
  if (!change.success) return { ok: false, code: 'lore-proposal-invalid', message: 'That lore proposal is incomplete and cannot be applied; discard it.' };
  if (!(await options.isSiteOn(run.origin))) {
    return { ok: false, code: 'lore-site-off', message: `Retinue is switched off for ${run.origin}, so it writes nothing into its lorebooks. Switch it on for that site and apply again, or discard this proposal.` };
  }
  const saved = await options.save(run.origin, change.data);
  if (!saved) return { ok: false, code: 'lore-page-missing', message: `No open SillyTavern page of ${run.origin} answered. Open the chat there (with Retinue on) and apply again.` };
  if (!saved.ok) {
    const words = (SAVE_REFUSALS[saved.refusal] ?? SAVE_REFUSALS['save-failed'] ?? '').replace('{book}', change.data.book).replace('{uid}', String(change.data.uid ?? ''));
    return { ok: false, code: `lore-${saved.refusal}`, message: words };
  }
  await store.appendJournal({
    runId,
    type: 'lore-proposal-end',
    time,
    ...(proposal.invocationId ? { invocationId: proposal.invocationId } : {}),
    ...(proposal.taskId ? { taskId: proposal.taskId } : {}),
    data: { proposalId, state: 'applied', book: change.data.book, uid: saved.uid, created: saved.created },
  });
  return { ok: true };
}
