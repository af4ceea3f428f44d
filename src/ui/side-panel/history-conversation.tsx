import type { AgentRun } from '../../records/run';
import { countText } from '../../count-text';
import { t } from '../ui-text';
import { conversationName } from './history-groups';
import { HistoryRow } from './history-row';

export interface HistoryConversationProps {
  conversationId: string;
  runs: AgentRun[];
  /** Unique within the history list; names the group's list by its heading. */
  headingId: string;
  showOrigin: boolean;
  openRunId: string | undefined;
  onOpen(runId: string): void;
  onDelete(runId: string): void;
}

/**
 * One conversation in the history: a heading (screen readers can jump between conversations by it)
 * and the list of its runs, labelled by that heading. The runs' rows work as they do ungrouped.
 */
export function HistoryConversation({ conversationId, runs, headingId, showOrigin, openRunId, onOpen, onDelete }: HistoryConversationProps) {
  const name = conversationName(conversationId, runs);
  const title = 'chatId' in name ? t('sidepanel_conversation_chat', name.chatId) : t('sidepanel_conversation_started', name.firstTitle || t('sidepanel_untitled'));
  return (
    <li class="history-conversation" data-conversation-id={conversationId}>
      <h3 id={headingId} class="conversation-title">
        <span class="conversation-name">{title}</span>
        <span class="history-meta"> · {countText('sidepanel_conversation_runs', runs.length)}</span>
      </h3>
      <ul class="history-list" aria-labelledby={headingId}>
        {runs.map((run) => (
          <HistoryRow key={run.id} run={run} showOrigin={showOrigin} isOpen={run.id === openRunId} onOpen={onOpen} onDelete={onDelete} />
        ))}
      </ul>
    </li>
  );
}
