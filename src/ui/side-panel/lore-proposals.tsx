import type { JournalEvent } from '../../records/journal';
import { t } from '../ui-text';
import { lineDiff, loreProposalsOf, type LoreProposalView } from './lore-diff';

export interface LoreProposalsProps {
  journal: readonly JournalEvent[];
  onDecide(proposalId: string, decision: 'apply' | 'discard'): void;
}

/**
 * The lorebook changes the run's helpers proposed, each with its difference to the entry and Apply /
 * Discard (only Apply writes, through the page's own `saveWorldInfo`). What a helper looked up in
 * the lorebooks is listed with its task (task-lookups.ts).
 */
export function LoreProposals({ journal, onDecide }: LoreProposalsProps) {
  const proposals = loreProposalsOf(journal);
  if (proposals.length === 0) return null;
  return (
    <section class="lore-proposals" aria-labelledby="lore-proposals-title">
      <h3 id="lore-proposals-title">{t('sidepanel_lore_heading', proposals.length)}</h3>
      <ul>
        {proposals.map((proposal) => (
          <LoreProposalCard key={proposal.proposalId} proposal={proposal} onDecide={onDecide} />
        ))}
      </ul>
    </section>
  );
}

function LoreProposalCard({ proposal, onDecide }: { proposal: LoreProposalView; onDecide: LoreProposalsProps['onDecide'] }) {
  const title = proposal.uid === undefined ? t('sidepanel_lore_new_entry', proposal.book) : t('sidepanel_lore_edit_entry', proposal.book, proposal.uid);
  const keysBefore = proposal.before?.keys.join(', ') ?? '';
  const keysAfter = proposal.keys.join(', ');
  return (
    <li class="lore-proposal" data-proposal-state={proposal.end?.state ?? 'waiting'}>
      <div class="lore-proposal-head">
        <strong>{title}</strong> <span class="muted">{t('sidepanel_lore_by', proposal.by)}</span>
      </div>
      <p>{proposal.reason}</p>
      <p class="lore-keys">
        {t('sidepanel_lore_keys')}: {keysBefore !== '' && keysBefore !== keysAfter && <del>{keysBefore}</del>} <ins>{keysAfter}</ins>
      </p>
      <pre class="lore-diff" aria-label={t('sidepanel_lore_diff_label', title)}>
        {lineDiff(proposal.before?.content ?? '', proposal.content).map((line, index) =>
          line.kind === 'same' ? <span key={index}>{`  ${line.text}\n`}</span> : line.kind === 'removed' ? <del key={index}>{`- ${line.text}\n`}</del> : <ins key={index}>{`+ ${line.text}\n`}</ins>,
        )}
      </pre>
      {proposal.end ? (
        <p class="lore-outcome" role="status">
          {proposal.end.state === 'discarded'
            ? t('sidepanel_lore_discarded')
            : t(proposal.end.created ? 'sidepanel_lore_applied_new' : 'sidepanel_lore_applied', proposal.book, proposal.end.uid ?? proposal.uid ?? 0)}
        </p>
      ) : (
        <div class="button-row">
          <button type="button" class="small-button" aria-label={t('sidepanel_lore_apply_label', title)} onClick={() => onDecide(proposal.proposalId, 'apply')}>
            {t('sidepanel_lore_apply')}
          </button>
          <button type="button" class="small-button" aria-label={t('sidepanel_lore_discard_label', title)} onClick={() => onDecide(proposal.proposalId, 'discard')}>
            {t('sidepanel_lore_discard')}
          </button>
        </div>
      )}
    </li>
  );
}
