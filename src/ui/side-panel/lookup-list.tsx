import { useEffect, useState } from 'preact/hooks';
import type { AgentTaskRecord } from '../../records/task';
import type { RunStore } from '../../store/run-store';
import { t } from '../ui-text';
import { loadTaskLookups, type TaskLookup } from './task-lookups';

/** A list of lookups of any kind (chat searches, messages read, lore entries), in the order they were made. */
export function LookupList({ lookups }: { lookups: readonly TaskLookup[] }) {
  if (lookups.length === 0) return null;
  return (
    <section class="task-lookups" aria-label={t('sidepanel_lookups_heading')}>
      <h4>{t('sidepanel_lookups_heading')}</h4>
      <ul class="lookup-list">
        {lookups.map((lookup, index) => (
          <li key={index} class={`lookup lookup-${lookup.kind}`} data-lookup-kind={lookup.kind}>
            {lookup.label}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** What one task looked up, read from its run's journal, again as the task moves on. */
export function TaskLookups({ store, task }: { store: RunStore; task: AgentTaskRecord }) {
  const [lookups, setLookups] = useState<TaskLookup[]>([]);
  useEffect(() => {
    let current = true;
    // A failed read shows no lookups: the result below still shows, and says what failed.
    loadTaskLookups(store, task).then(
      (loaded) => current && setLookups(loaded),
      () => undefined,
    );
    return () => {
      current = false;
    };
    // Each lookup is a tool call, so the tool-call count says when to read again.
  }, [store, task.id, task.runId, task.status, task.usage.toolCalls]);
  return <LookupList lookups={lookups} />;
}
