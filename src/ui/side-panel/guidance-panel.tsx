import { useState } from 'preact/hooks';
import { GUIDANCE_MAX_CHARS, type GuidanceNote } from '../../records/guidance-note';
import type { AgentRun } from '../../records/run';
import type { AgentTaskRecord } from '../../records/task';
import { t } from '../ui-text';

/** Who a note can reach now: the writer until it replied, and every task still queued or running. */
function targetsOf(run: AgentRun, tasks: readonly AgentTaskRecord[]): Array<{ taskId?: string; label: string }> {
  const writer = run.repliedAt === undefined ? [{ label: t('sidepanel_guidance_writer') }] : [];
  const working = tasks.filter((task) => task.status === 'running' || task.status === 'queued').map((task) => ({ taskId: task.id, label: task.workspaceKey }));
  return [...writer, ...working];
}

function noteTarget(note: GuidanceNote, tasks: readonly AgentTaskRecord[]): string {
  return note.taskId === undefined ? t('sidepanel_guidance_writer') : (tasks.find((task) => task.id === note.taskId)?.workspaceKey ?? '');
}

/**
 * Notes to the writer or a running task (issue 25 item 3): each goes into that agent's next model
 * request, never into the page's chat. The notes of the run are listed with whether they went in.
 */
export function GuidancePanel(props: { run: AgentRun; tasks: readonly AgentTaskRecord[]; onSend: (taskId: string | undefined, text: string) => void }) {
  const { run, tasks } = props;
  const [text, setText] = useState('');
  const [target, setTarget] = useState('');
  const targets = run.status === 'running' ? targetsOf(run, tasks) : [];
  const notes = run.guidance ?? [];
  if (targets.length === 0 && notes.length === 0) return null;
  const chosen = targets.find((entry) => (entry.taskId ?? '') === target) ?? targets[0];
  const send = (event: Event) => {
    event.preventDefault();
    if (!chosen || text.trim() === '') return;
    props.onSend(chosen.taskId, text.trim());
    setText('');
  };
  return (
    <section class="guidance-panel" aria-label={t('sidepanel_guidance_send')}>
      {notes.length > 0 && (
        <ul class="guidance-notes">
          {notes.map((note) => (
            <li key={note.id} class="guidance-note" data-applied={note.appliedAt !== undefined}>
              <strong>{noteTarget(note, tasks)}</strong>{' '}
              {note.appliedAt === undefined ? t('sidepanel_guidance_pending', note.text) : t('sidepanel_guidance_applied', note.text)}
            </li>
          ))}
        </ul>
      )}
      {chosen && (
        <form class="guidance-form" onSubmit={send}>
          <span class="guidance-target">{t('sidepanel_guidance_label', chosen.label)}</span>
          {targets.length > 1 && (
            <select aria-label={t('sidepanel_guidance_label', chosen.label)} value={chosen.taskId ?? ''} onInput={(event) => setTarget(event.currentTarget.value)}>
              {targets.map((entry) => (
                <option key={entry.taskId ?? ''} value={entry.taskId ?? ''}>
                  {entry.label}
                </option>
              ))}
            </select>
          )}
          <textarea rows={2} aria-label={t('sidepanel_guidance_label', chosen.label)} maxLength={GUIDANCE_MAX_CHARS} placeholder={t('sidepanel_guidance_placeholder')} value={text} onInput={(event) => setText(event.currentTarget.value)} />
          <button type="submit" class="small-button" disabled={text.trim() === ''}>
            {t('sidepanel_guidance_send')}
          </button>
        </form>
      )}
    </section>
  );
}
