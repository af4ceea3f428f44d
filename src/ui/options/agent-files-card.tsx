import { useState } from 'preact/hooks';
import type { AgentFile } from '../../settings/agent-markdown';
import type { SettingsIssue } from '../../settings/settings-errors';
import { t } from '../ui-text';
import type { OptionsState } from './options-state';

interface Outcome {
  notes: string[];
  errors: SettingsIssue[];
}

async function readFiles(files: FileList | null | undefined): Promise<AgentFile[]> {
  const markdown = Array.from(files ?? []).filter((file) => /\.(md|markdown)$/i.test(file.name));
  return Promise.all(markdown.map(async (file) => ({ name: file.name, text: await file.text() })));
}

/**
 * Imports agents from Markdown files with front matter (the Claude Code sub-agent format), picked or
 * dropped, many at once. Good files are saved; notes and refused files are listed under the picker.
 */
export function AgentFilesCard({ state }: { state: OptionsState }) {
  const [outcome, setOutcome] = useState<Outcome | undefined>(undefined);
  const [dragging, setDragging] = useState(false);

  async function importFiles(files: AgentFile[]) {
    const current = state.settings.value;
    if (!current) return;
    if (files.length === 0) return setOutcome({ notes: [], errors: [{ path: '', message: t('options_agent_files_none') }] });
    // The YAML reader is loaded only when files come: most visits to the options page need none.
    const { importAgentFiles } = await import('../../settings/agent-markdown');
    const result = importAgentFiles(files, current);
    setOutcome({ notes: result.notes, errors: result.errors });
    if (result.imported.length > 0) {
      await state.saveSettings(result.settings, t('options_agent_files_done', result.imported.map((profile) => profile.name).join(', ')));
    }
  }

  return (
    <div
      class={`card agent-files${dragging ? ' dragging' : ''}`}
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(event) => {
        event.preventDefault();
        setDragging(false);
        void readFiles(event.dataTransfer?.files).then(importFiles);
      }}
    >
      <h3>{t('options_agent_files')}</h3>
      <p class="muted">{t('options_agent_files_hint')}</p>
      <label for="agent-files-input">{t('options_agent_files_pick')}</label>
      <input
        id="agent-files-input"
        type="file"
        multiple
        accept=".md,.markdown,text/markdown"
        onChange={(event) => {
          const input = event.currentTarget;
          void readFiles(input.files).then(importFiles).finally(() => (input.value = ''));
        }}
      />
      {outcome && outcome.notes.length > 0 && (
        <ul class="agent-files-notes">
          {outcome.notes.map((note, index) => (
            <li key={index}>{note}</li>
          ))}
        </ul>
      )}
      {outcome && outcome.errors.length > 0 && (
        <div class="import-errors" role="alert">
          <p>{t('options_agent_files_refused')}</p>
          <ul>
            {outcome.errors.map((issue, index) => (
              <li key={index}>{issue.message}</li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
