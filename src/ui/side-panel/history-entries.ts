import type { AgentRun } from '../../records/run';

/**
 * History with `run` as it stands now: its entry replaced, or put where the store lists it (newest
 * first), at most `limit` entries. The panel keeps its history so as a run starts and ends, instead
 * of reading every listed run again (up to 2,000, each checked against its schema) twice a turn.
 */
export function historyWithRun(history: readonly AgentRun[], run: AgentRun, limit: number): AgentRun[] {
  const index = history.findIndex((entry) => entry.id === run.id);
  if (index !== -1) return history.map((entry, at) => (at === index ? run : entry));
  const before = history.findIndex((entry) => entry.createdAt < run.createdAt);
  const position = before === -1 ? history.length : before;
  return [...history.slice(0, position), run, ...history.slice(position)].slice(0, limit);
}
