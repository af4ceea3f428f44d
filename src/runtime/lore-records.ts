import type { LorePort, LoreReader } from '../tools/lore-books';
import { journalIds, type InvocationDriver } from './invocation-driver';

/**
 * The lore tools' port for one call: the page's books through `reader`; a proposal is journaled
 * (`lore-proposal`, stored before the tool answers) and waits for the user's Apply or Discard in the
 * side panel; what was looked up is journaled as `lore-lookup`.
 */
export function createLorePort(driver: InvocationDriver, reader: LoreReader): LorePort {
  const session = driver.session;
  const ids = journalIds(driver);
  const task = driver.taskId === undefined ? undefined : session.tasks.get(driver.taskId);
  const workspaceKey = task?.workspaceKey;
  return {
    reader,
    async propose(proposal) {
      const proposalId = session.environment.newId();
      await session.journal.record('lore-proposal', { ...ids, data: { proposalId, ...(workspaceKey ? { workspaceKey } : {}), ...proposal } });
    },
    lookedUp(tool, labels) {
      session.journal.note('lore-lookup', { ...ids, data: { tool, labels: labels.slice(0, 40), ...(workspaceKey ? { workspaceKey } : {}) } });
    },
  };
}
