import type { JournalEvent } from '../../records/journal';
import type { RunStore } from '../../store/run-store';
import { t } from '../ui-text';

/**
 * One thing a task looked up, as the side panel lists it: a kind (`chat-search`, `chat-messages`;
 * lore lookups add their own) and a label in the user's language. The display takes any list of
 * these, so each kind of source only has to say how its journal events read.
 */
export interface TaskLookup {
  kind: string;
  label: string;
}

/** At most this many message numbers in one label; the rest are counted. */
const MAX_NUMBERS_IN_LABEL = 12;

/** Message numbers as the user reads them: runs of consecutive numbers joined (`#2–#5, #7`), in the order given. */
export function messageNumbersText(numbers: readonly number[]): string {
  const shown = numbers.slice(0, MAX_NUMBERS_IN_LABEL);
  const parts: string[] = [];
  let start = shown[0];
  let previous = start;
  for (const number of [...shown.slice(1), undefined]) {
    if (start === undefined || previous === undefined) break;
    if (number !== undefined && number === previous + 1) {
      previous = number;
      continue;
    }
    parts.push(start === previous ? `#${start}` : `#${start}–#${previous}`);
    start = number;
    previous = number;
  }
  const rest = numbers.length - shown.length;
  return rest > 0 ? `${parts.join(', ')} ${t('sidepanel_lookup_more', rest)}` : parts.join(', ');
}

/** The lookup one journal event records, if it records one. */
function lookupOf(event: JournalEvent): TaskLookup | undefined {
  if (event.type === 'chat-searched') {
    const query = event.data.query ?? '';
    const found = event.data.found ?? 0;
    const label =
      found === 0
        ? t('sidepanel_lookup_chat_search_none', query)
        : t('sidepanel_lookup_chat_search', query, found, messageNumbersText(event.data.messages ?? []));
    return { kind: 'chat-search', label };
  }
  if (event.type === 'chat-messages-read') {
    const numbers = event.data.messages ?? (event.data.from !== undefined ? [event.data.from] : []);
    const key = event.data.cut === true ? 'sidepanel_lookup_chat_read_cut' : 'sidepanel_lookup_chat_read';
    return { kind: 'chat-messages', label: t(key, messageNumbersText(numbers)) };
  }
  if (event.type === 'lore-lookup') {
    const labels = event.data.labels ?? [];
    return labels.length === 0 ? undefined : { kind: 'lore', label: t('sidepanel_lookup_lore', labels.join(', ')) };
  }
  return undefined;
}

/** What the task with `taskId` looked up, in the order it did, from its run's journal. */
export function taskLookups(journal: readonly JournalEvent[], taskId: string): TaskLookup[] {
  const lookups: TaskLookup[] = [];
  for (const event of journal) {
    if (event.taskId !== taskId) continue;
    const lookup = lookupOf(event);
    if (lookup) lookups.push(lookup);
  }
  return lookups;
}

/** Reads a task's lookups from the store (the run's journal). */
export async function loadTaskLookups(store: RunStore, task: { id: string; runId: string }): Promise<TaskLookup[]> {
  return taskLookups(await store.readJournal(task.runId), task.id);
}
