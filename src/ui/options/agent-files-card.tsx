import { useState } from 'preact/hooks';
import type { AgentFilesPreview } from '../../settings/agent-file-preview';
import type { AgentFile } from '../../settings/agent-markdown';
import type { Settings } from '../../settings/schema';
import type { SettingsIssue } from '../../settings/settings-errors';
import { t } from '../ui-text';
import { AgentFilesPreviewPanel } from './agent-files-preview';
import type { OptionsState } from './options-state';

interface Outcome {
  notes: string[];
  errors: SettingsIssue[];
}

/** An import read and waiting for the user: what it would save, and the document it would save. */
interface PendingImport {
  files: AgentFile[];
  preview: AgentFilesPreview;
}

/** The files read into `current`, with their preview; undefined when no file imported. */
async function readImport(files: AgentFile[], current: Settings) {
  // The YAML reader is loaded only when files come: most visits to the options page need none.
  const [{ importAgentFiles }, { previewAgentFiles }] = await Promise.all([import('../../settings/agent-markdown'), import('../../settings/agent-file-preview')]);
  const result = importAgentFiles(files, current);
  return { result, preview: previewAgentFiles(result.imported, current) };
}

async function readFiles(files: FileList | null | undefined): Promise<AgentFile[]> {
  const markdown = Array.from(files ?? []).filter((file) => /\.(md|markdown)$/i.test(file.name));
  return Promise.all(markdown.map(async (file) => ({ name: file.name, text: await file.text() })));
}

/**
 * Imports agents from Markdown files with front matter (the Claude Code sub-agent format), picked or
 * dropped, many at once. Good files are shown first (id, what they replace, model, budgets) and saved
 * only when the user chooses Save; notes and refused files are listed under the picker.
 */
export function AgentFilesCard({ state }: { state: OptionsState }) {
  const [outcome, setOutcome] = useState<Outcome | undefined>(undefined);
  const [dragging, setDragging] = useState(false);
  const [pending, setPending] = useState<PendingImport | undefined>(undefined);

  async function importFiles(files: AgentFile[]) {
    const current = state.settings.value;
    if (!current) return;
    if (files.length === 0) return setOutcome({ notes: [], errors: [{ path: '', message: t('options_agent_files_none') }] });
    const { result, preview } = await readImport(files, current);
    setOutcome({ notes: result.notes, errors: result.errors });
    setPending(result.imported.length > 0 ? { files, preview } : undefined);
  }

  async function savePending() {
    const current = state.settings.value;
    if (!pending || !current) return;
    // Read again into the settings as they are now; if that would replace other profiles than the
    // user confirmed (the settings changed meanwhile), show the new preview instead of saving.
    const { result, preview } = await readImport(pending.files, current);
    if (JSON.stringify(preview) !== JSON.stringify(pending.preview)) return setPending({ files: pending.files, preview });
    setPending(undefined);
    await state.saveSettings(result.settings, t('options_agent_files_done', result.imported.map((profile) => profile.name).join(', ')));
  }

  function cancelPending() {
    setPending(undefined);
    setOutcome({ notes: [t('options_agent_preview_cancelled')], errors: [] });
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
      {pending && (
        <AgentFilesPreviewPanel key={pending.preview.entries.map((entry) => entry.id).join(' ')} preview={pending.preview} onSave={() => void savePending()} onCancel={cancelPending} />
      )}
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
