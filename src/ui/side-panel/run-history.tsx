import { useCallback, useMemo } from 'preact/hooks';
import { t } from '../ui-text';
import { HistoryConversation } from './history-conversation';
import { groupHistoryByConversation } from './history-groups';
import { HistoryRow } from './history-row';
import type { HistoryScope, SidePanelState } from './side-panel-state';

export interface RunHistoryProps {
  state: SidePanelState;
}

/** Runs of this site or of all sites, newest first and grouped by conversation, searchable, rendered a page at a time. */
export function RunHistory({ state }: RunHistoryProps) {
  const scope = state.historyScope.value;
  const visible = state.visibleHistory.value;
  const entries = useMemo(() => groupHistoryByConversation(visible), [visible]);
  const matching = state.matchingHistoryCount.value;
  const openRunId = state.run.value?.id;
  const onOpen = useCallback((runId: string) => void state.openRun(runId), [state]);
  const onDelete = useCallback((runId: string) => void state.deleteRun(runId), [state]);
  function chooseScope(next: HistoryScope) {
    state.historyScope.value = next;
    void state.refreshHistory();
  }
  return (
    <section class="run-history" aria-labelledby="history-title">
      <div class="history-head">
        <h2 id="history-title">{t('sidepanel_history')}</h2>
        <div class="segmented" role="group" aria-label={t('sidepanel_history')}>
          <button type="button" aria-pressed={scope === 'site'} onClick={() => chooseScope('site')}>
            {t('sidepanel_history_this_site')}
          </button>
          <button type="button" aria-pressed={scope === 'all'} onClick={() => chooseScope('all')}>
            {t('sidepanel_history_all_sites')}
          </button>
        </div>
      </div>
      <input
        type="search"
        class="history-search"
        placeholder={t('sidepanel_search')}
        aria-label={t('sidepanel_search')}
        value={state.query.value}
        onInput={(event) => (state.query.value = event.currentTarget.value)}
      />
      {state.history.value.length === 0 ? (
        <p class="muted">{t('sidepanel_history_empty')}</p>
      ) : matching === 0 ? (
        <p class="muted">{t('sidepanel_history_no_match', state.query.value)}</p>
      ) : (
        <ul class="history-list">
          {entries.map((entry, index) =>
            entry.kind === 'run' ? (
              <HistoryRow key={entry.key} run={entry.run} showOrigin={scope === 'all'} isOpen={entry.run.id === openRunId} onOpen={onOpen} onDelete={onDelete} />
            ) : (
              <HistoryConversation
                key={entry.key}
                conversationId={entry.conversationId}
                runs={entry.runs}
                headingId={`history-conversation-${index}`}
                showOrigin={scope === 'all'}
                openRunId={openRunId}
                onOpen={onOpen}
                onDelete={onDelete}
              />
            ),
          )}
        </ul>
      )}
      {visible.length < matching && (
        <button type="button" class="small-button" onClick={() => state.showMoreHistory()}>
          {t('sidepanel_show_more')} ({visible.length}/{matching})
        </button>
      )}
    </section>
  );
}
