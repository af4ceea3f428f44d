import { expect } from 'vitest';
import type { ScriptedModelServer } from '../support/scripted-model-server';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';
import { readRunStore } from './support/settings';

/**
 * The per-origin store quota in a browser, shared by Chromium and Firefox: a site whose stored runs
 * already fill its quota, with nothing that may be pruned (a run still working), gets its next turn
 * passed through to its own model untouched, and the side panel says why.
 */

export const OWN_MODEL_REPLY = 'The lamp is lit. (the page’s own model, without the retinue)';
const FILLING_RUN_ID = 'run-filling-the-quota';

/** Puts a run of `origin` (still running unless `status` says otherwise) whose workspace holds more than the site's quota. */
async function fillQuotaWithRun(options: EvaluatingHandle, origin: string, run: { id: string; title: string; status: 'running' | 'completed' }): Promise<void> {
  await evaluateIn(
    options,
    async ({ origin: siteOrigin, run: filling }) => {
      const database = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('retinue-runs');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const usage = { rounds: 0, toolCalls: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 };
      await new Promise<void>((resolve, reject) => {
        const transaction = database.transaction(['runs', 'files'], 'readwrite');
        const ended = filling.status === 'running' ? {} : { endedAt: Date.now() };
        transaction.objectStore('runs').put({ id: filling.id, origin: siteOrigin, adapter: 'openai-chat', title: filling.title, status: filling.status, rootInvocationId: `${filling.id}-root`, createdAt: Date.now(), ...ended, usage });
        // 65 MB of text: past the 64 MB a site may keep.
        transaction.objectStore('files').put({ runId: filling.id, path: 'notes/big.md', content: 'x'.repeat(65 * 1024 * 1024), updatedAt: Date.now() });
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(transaction.error);
      });
      database.close();
    },
    { origin, run },
  );
}

/** The browser's own quota for the extension's storage and what it uses, as the extension's pages see them. */
export async function storageEstimate(options: EvaluatingHandle): Promise<{ quota: number; usage: number }> {
  return evaluateIn(options, async () => {
    const estimate = await navigator.storage.estimate();
    return { quota: estimate.quota ?? 0, usage: estimate.usage ?? 0 };
  }, undefined);
}

export async function expectQuotaPassThroughWithNotice(setup: {
  options: EvaluatingHandle;
  page: EvaluatingHandle;
  panel: EvaluatingHandle;
  model: ScriptedModelServer;
  origin: string;
}): Promise<void> {
  await fillQuotaWithRun(setup.options, setup.origin, { id: FILLING_RUN_ID, title: 'A long run', status: 'running' });
  // Without unlimitedStorage the browser's default quota must hold many sites' full shares (usage is
  // of the compressed files, so the 65 MB of one letter above shows as a few MB).
  const estimate = await storageEstimate(setup.options);
  console.info(`storage estimate without unlimitedStorage: quota ${Math.round(estimate.quota / 2 ** 20)} MB, usage ${Math.round(estimate.usage / 2 ** 20)} MB`);
  expect(estimate.quota).toBeGreaterThan(8 * 64 * 2 ** 20);
  setup.model.reset();
  setup.model.script(() => ({ content: OWN_MODEL_REPLY }));

  await waitForFixtureReady(setup.page);
  const turn = await sendFixtureMessage(setup.page, 'Mara lights the lamp.');

  expect(turn).toMatchObject({ status: 'done', reply: OWN_MODEL_REPLY });
  // The page's own request went once, without anything of Retinue's.
  expect(setup.model.requests).toHaveLength(1);
  expect(setup.model.requests[0]?.toolNames).toEqual([]);
  expect((await readRunStore(setup.options)).runs.map((run) => run.id)).toEqual([FILLING_RUN_ID]);
  const notice = await waitUntil(
    () =>
      evaluateIn(setup.panel, () => {
        const line = Array.from(document.querySelectorAll('.page-notice')).find((element) => element.textContent?.includes('64 MB'));
        return line?.textContent ?? undefined;
      }, undefined),
    { description: 'the quota notice in the side panel', timeoutMs: 20_000 },
  );
  expect(notice).toContain("This site's runs already fill the 64 MB Retinue keeps for one site");
}

const OLD_RUN_TITLE = 'An old, large run';
const historyTitles = (panel: EvaluatingHandle) =>
  evaluateIn(panel, () => Array.from(document.querySelectorAll('.history-title')).map((element) => element.textContent ?? ''), undefined);

/**
 * A site whose ended runs fill its quota: the next turn's admission deletes the oldest, and a side
 * panel open on the site drops it from its history (it keeps its history as runs start and end, so
 * the background tells it what it deleted) while it lists the new turn.
 */
export async function expectDeletedRunLeavesOpenPanel(setup: {
  options: EvaluatingHandle;
  page: EvaluatingHandle;
  openPanel: () => Promise<EvaluatingHandle>;
  model: ScriptedModelServer;
  origin: string;
}): Promise<void> {
  await fillQuotaWithRun(setup.options, setup.origin, { id: 'run-old-and-large', title: OLD_RUN_TITLE, status: 'completed' });
  const panel = await setup.openPanel();
  await waitUntil(async () => (await historyTitles(panel)).some((title) => title.includes(OLD_RUN_TITLE)), {
    description: 'the old run in the side panel’s history',
    timeoutMs: 20_000,
  });
  setup.model.reset();
  setup.model.script(() => ({ content: 'The wick is trimmed.' }));

  await waitForFixtureReady(setup.page);
  const turn = await sendFixtureMessage(setup.page, 'Mara trims the wick.');

  expect(turn).toMatchObject({ status: 'done', reply: 'The wick is trimmed.' });
  expect((await readRunStore(setup.options)).runs.map((run) => run.title)).toEqual(['Mara trims the wick.']);
  const titles = await waitUntil(
    async () => {
      const shown = await historyTitles(panel);
      return shown.some((title) => title.includes('Mara trims the wick.')) && !shown.some((title) => title.includes(OLD_RUN_TITLE)) ? shown : undefined;
    },
    { description: 'the side panel’s history without the deleted run, with the new turn', timeoutMs: 20_000 },
  );
  expect(titles).toHaveLength(1);
}

