import { useEffect, useRef, useState } from 'preact/hooks';
import { MAX_MEMORY_CHARS, type MemoryFile, type MemoryVersion } from '../../records/memory-version';
import { builtInProfiles, resolveProfiles } from '../../profiles/built-in-profiles';
import type { AgentRun } from '../../records/run';
import type { Settings } from '../../settings/schema';
import type { RunStore } from '../../store/run-store';
import { countText } from '../../count-text';
import { t } from '../ui-text';
import { formatCount } from './format';
import { clearAgentMemory, editFits, memoryOfRun, saveMemoryFile } from './memory-edits';

export interface AgentMemoryPanelProps {
  run: AgentRun;
  store: RunStore;
  /** An agent's name for the user, from its id. */
  agentName(agentId: string): string;
  onError(error: unknown): void;
  now?: () => number;
}

/** An agent's name for the user: its profile's, built-in or from the settings; the id when none has it. */
export function agentNameOf(settings: Settings | undefined, agentId: string): string {
  const profiles = settings ? resolveProfiles(settings) : builtInProfiles;
  return profiles.find((profile) => profile.id === agentId)?.name ?? agentId;
}

/**
 * Each agent's memory as it stood after the shown run's reply, for the conversation's next turn on
 * this line: read, edit a file, or clear an agent's memory. Nothing shows before the reply is
 * recorded (a run's writes become memory only then) or for a run that left none.
 */
export function AgentMemoryPanel({ run, store, agentName, onError, now = Date.now }: AgentMemoryPanelProps) {
  const [version, setVersion] = useState<MemoryVersion | undefined>(undefined);
  useEffect(() => {
    let current = true;
    memoryOfRun(store, run.id).then((loaded) => current && setVersion(loaded), onError);
    return () => {
      current = false;
    };
  }, [store, run.id, run.status, run.repliedAt]);
  if (!version) return null;
  const agents = Object.entries(version.agents).filter(([, files]) => files.length > 0);
  const clear = (agentId: string) => clearAgentMemory(store, version, agentId, now()).then(setVersion, onError);
  const save = (agentId: string, file: MemoryFile) => saveMemoryFile(store, version, { agentId, ...file, now: now() }).then(setVersion, onError);
  return (
    <section class="agent-memory" aria-labelledby="agent-memory-title">
      <h3 id="agent-memory-title">{t('sidepanel_memory_heading')}</h3>
      <p class="muted">{t('sidepanel_memory_intro')}</p>
      {agents.length === 0 ? (
        <p class="muted">{t('sidepanel_memory_none')}</p>
      ) : (
        <ul>
          {agents.map(([agentId, files]) => (
            <li key={agentId} class="agent-memory-agent" data-agent-id={agentId}>
              <div class="agent-memory-head">
                <h4>{agentName(agentId)}</h4>
                <button type="button" class="small-button danger" aria-label={t('sidepanel_memory_clear_label', agentName(agentId))} onClick={() => void clear(agentId)}>
                  {t('sidepanel_memory_clear')}
                </button>
              </div>
              {files.map((file) => (
                <MemoryFileView key={file.path} agentId={agentId} name={agentName(agentId)} file={file} files={files} onSave={(content) => save(agentId, { path: file.path, content })} />
              ))}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

interface MemoryFileViewProps {
  agentId: string;
  name: string;
  file: MemoryFile;
  files: readonly MemoryFile[];
  onSave(content: string): Promise<unknown>;
}

function MemoryFileView({ agentId, name, file, files, onSave }: MemoryFileViewProps) {
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const editor = useRef<HTMLTextAreaElement>(null);
  const editing = draft !== undefined;
  useEffect(() => {
    if (editing) editor.current?.focus();
  }, [editing]);
  const fieldId = `memory-edit-${agentId}-${file.path}`.replace(/[^A-Za-z0-9_-]/g, '-');
  const shownPath = `memory/${file.path}`;

  function submit(event: Event) {
    event.preventDefault();
    const content = draft ?? '';
    if (!editFits(files, file.path, content)) {
      setProblem(t('sidepanel_memory_too_long', name, formatCount(MAX_MEMORY_CHARS)));
      return;
    }
    void onSave(content).then(() => {
      setDraft(undefined);
      setProblem(undefined);
    });
  }

  return (
    <div class="agent-memory-file" data-memory-path={file.path}>
      <div class="agent-memory-file-head">
        <span class="agent-memory-path">{countText('sidepanel_memory_file', file.content.length, shownPath)}</span>
        {!editing && (
          <button type="button" class="small-button" aria-label={t('sidepanel_memory_edit_label', shownPath, name)} onClick={() => setDraft(file.content)}>
            {t('sidepanel_memory_edit')}
          </button>
        )}
      </div>
      {!editing ? (
        <pre class="agent-memory-content">{file.content}</pre>
      ) : (
        <form class="agent-memory-edit" onSubmit={submit}>
          <label for={fieldId}>{t('sidepanel_memory_field', shownPath, name)}</label>
          <textarea id={fieldId} ref={editor} rows={8} maxLength={MAX_MEMORY_CHARS} value={draft} onInput={(event) => setDraft(event.currentTarget.value)} />
          <div class="button-row">
            <button type="submit" class="small-button primary">{t('sidepanel_memory_save')}</button>
            <button type="button" class="small-button" onClick={() => { setDraft(undefined); setProblem(undefined); }}>
              {t('sidepanel_cancel')}
            </button>
          </div>
        </form>
      )}
      {problem && <p class="error-text" role="alert">{problem}</p>}
    </div>
  );
}
