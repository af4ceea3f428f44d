import type { AgentRun } from '../../records/run';

/** Lower-cased search text per run record, so typing in the search box does not redo it for 1,000 runs. */
const searchTexts = new WeakMap<AgentRun, string>();

function searchTextOf(run: AgentRun): string {
  let text = searchTexts.get(run);
  if (text === undefined) {
    text = [run.title, run.origin, run.status, run.adapter, run.reply ?? '', run.error?.message ?? ''].join('\n').toLowerCase();
    searchTexts.set(run, text);
  }
  return text;
}

/** Whether a run matches the history search: every word of the query, in title, reply, origin or error. */
export function matchesQuery(run: AgentRun, query: string): boolean {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return true;
  const haystack = searchTextOf(run);
  return words.every((word) => haystack.includes(word));
}
