import { useState } from 'preact/hooks';
import { runsText } from '../cadence-text';
import type { AgentFilePreviewEntry, AgentFilesPreview, PreviewModel } from '../../settings/agent-file-preview';
import { countText } from '../../count-text';
import { t } from '../ui-text';

function modelText(model: PreviewModel): string {
  if (model.binding === 'host') return model.model ? t('options_agent_preview_host_model', model.model) : t('options_agent_preview_host');
  if (model.binding === 'hostProfile') return t('options_agent_preview_host_profile', model.profileName);
  return t(model.keyed ? 'options_agent_preview_connection_keyed' : 'options_agent_preview_connection', model.connectionLabel, model.model);
}

function budgetText(budget: AgentFilePreviewEntry['budget']): string {
  return [
    t('options_agent_preview_budget_value', countText('count_rounds', budget.maxRounds), countText('count_tool_calls', budget.maxToolCalls)),
    ...(budget.timeoutMs !== undefined ? [t('options_agent_preview_timeout', Math.round(budget.timeoutMs / 1000))] : []),
    ...(budget.maxRunTokens !== undefined ? [countText('options_agent_preview_run_tokens', budget.maxRunTokens)] : []),
  ].join(' · ');
}

function replacesText(entry: AgentFilePreviewEntry): string {
  if (entry.replaces.kind === 'writer') return t('options_agent_preview_replaces_writer', entry.replaces.name);
  if (entry.replaces.kind === 'agent') return t('options_agent_preview_replaces_agent', entry.replaces.name);
  return t('options_agent_preview_new');
}

function PreviewEntry({ entry }: { entry: AgentFilePreviewEntry }) {
  return (
    <li class={`agent-preview-entry${entry.replaces.kind === 'writer' ? ' replaces-writer' : ''}`} data-agent-id={entry.id}>
      <strong>{entry.name}</strong>
      <dl>
        <dt>{t('options_agent_preview_id')}</dt>
        <dd class="agent-preview-id">{entry.id}</dd>
        <dt>{t('options_agent_preview_replaces')}</dt>
        <dd class="agent-preview-replaces">{replacesText(entry)}</dd>
        <dt>{t('options_agent_preview_model')}</dt>
        <dd class="agent-preview-model">{modelText(entry.model)}</dd>
        <dt>{t('options_agent_preview_budget')}</dt>
        <dd class="agent-preview-budget">
          {budgetText(entry.budget)}
          {entry.canDelegate ? ` · ${t('options_agent_preview_delegates')}` : ''}
        </dd>
        <dt>{t('cadence_field_label')}</dt>
        <dd class="agent-preview-runs">{runsText(entry.runs)}</dd>
      </dl>
    </li>
  );
}

/**
 * The agents an import would save, before it saves them: Save stays disabled while an agent of the
 * same id (and, separately, the writer) would be replaced and the user has not ticked that it may.
 */
export function AgentFilesPreviewPanel(props: { preview: AgentFilesPreview; onSave: () => void; onCancel: () => void }) {
  const { preview } = props;
  const [replaceConfirmed, setReplaceConfirmed] = useState(false);
  const [writerConfirmed, setWriterConfirmed] = useState(false);
  const replacedNames = preview.entries.filter((entry) => entry.replaces.kind === 'agent').map((entry) => entry.id);
  const canSave = (replacedNames.length === 0 || replaceConfirmed) && (!preview.replacesWriter || writerConfirmed);
  return (
    <section class="agent-preview" aria-label={t('options_agent_preview_title')}>
      <p>{t('options_agent_preview_title')}</p>
      <ul>
        {preview.entries.map((entry) => (
          <PreviewEntry key={entry.id} entry={entry} />
        ))}
      </ul>
      {replacedNames.length > 0 && (
        <label class="agent-preview-confirm">
          <input type="checkbox" checked={replaceConfirmed} onChange={(event) => setReplaceConfirmed(event.currentTarget.checked)} />
          {t('options_agent_preview_confirm_replace', replacedNames.join(', '))}
        </label>
      )}
      {preview.replacesWriter && (
        <label class="agent-preview-confirm writer">
          <input type="checkbox" checked={writerConfirmed} onChange={(event) => setWriterConfirmed(event.currentTarget.checked)} />
          {t('options_agent_preview_confirm_writer')}
        </label>
      )}
      <div class="actions">
        <button type="button" class="primary" disabled={!canSave} onClick={props.onSave}>
          {t('options_agent_preview_save')}
        </button>
        <button type="button" onClick={props.onCancel}>
          {t('options_agent_preview_cancel')}
        </button>
      </div>
    </section>
  );
}
