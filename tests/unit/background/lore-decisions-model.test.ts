import fc from 'fast-check';
import { expect, test } from 'vitest';
import { decideLoreProposal, type LoreDecision } from '../../../src/background/lore-decisions';
import { loreSaveAnswerSchema } from '../../../src/messaging/lore-messages';
import { saveLoreEntryInPage } from '../../../src/hosts/sillytavern/lore-page-functions';
import { openRunStore } from '../../../src/store/idb-run-store';
import type { RunStore } from '../../../src/store/run-store';
import { createLoreWindow } from '../../support/fixture-lorebooks';
import { buildRun, uniqueDatabaseName } from '../../support/record-builders';

/** What a user expects: each proposal is decided once, and only Apply writes (once per applied proposal). */
interface Model {
  proposals: ('waiting' | 'applied' | 'discarded')[];
}
interface Real {
  store: RunStore;
  page: ReturnType<typeof createLoreWindow>;
}

class Propose implements fc.AsyncCommand<Model, Real> {
  constructor(readonly edit: boolean) {}
  check = () => true;
  async run(model: Model, real: Real) {
    const proposalId = `p${model.proposals.length}`;
    await real.store.appendJournal({ runId: 'run-1', type: 'lore-proposal', data: { proposalId, book: 'Mira', ...(this.edit ? { uid: 0 } : {}), keys: ['Mira'], content: `Version ${proposalId}`, reason: 'r' } });
    model.proposals.push('waiting');
  }
  toString = () => `propose(${this.edit ? 'edit' : 'new'})`;
}

class Decide implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number, readonly decision: LoreDecision) {}
  check = (model: Readonly<Model>) => model.proposals.length > 0;
  async run(model: Model, real: Real) {
    const index = this.pick % model.proposals.length;
    const savesBefore = real.page.saves.length;
    const outcome = await decideLoreProposal({
      isSiteOn: async () => true,
      store: real.store,
      runId: 'run-1',
      proposalId: `p${index}`,
      decision: this.decision,
      save: async (_origin, change) => loreSaveAnswerSchema.parse(await saveLoreEntryInPage(change, real.page.window)),
    });
    const waiting = model.proposals[index] === 'waiting';
    expect(outcome.ok).toBe(waiting);
    expect(real.page.saves.length - savesBefore).toBe(waiting && this.decision === 'apply' ? 1 : 0);
    if (waiting) model.proposals[index] = this.decision === 'apply' ? 'applied' : 'discarded';
    const ends = (await real.store.readJournal('run-1')).filter((event) => event.type === 'lore-proposal-end');
    expect(ends).toHaveLength(model.proposals.filter((state) => state !== 'waiting').length);
  }
  toString = () => `${this.decision}(${this.pick})`;
}

test('any sequence of proposals, Applies and Discards: each is decided once and only Apply writes', async () => {
  const commands = [fc.boolean().map((edit) => new Propose(edit)), fc.tuple(fc.nat(5), fc.constantFrom<LoreDecision>('apply', 'discard')).map(([pick, decision]) => new Decide(pick, decision))];
  await fc.assert(
    fc.asyncProperty(fc.commands(commands, { maxCommands: 12 }), async (sequence) => {
      const store = await openRunStore({ name: uniqueDatabaseName() });
      await store.putRun(buildRun({ id: 'run-1', adapter: 'sillytavern' }));
      try {
        await fc.asyncModelRun(() => ({ model: { proposals: [] }, real: { store, page: createLoreWindow() } }), sequence);
      } finally {
        store.close();
      }
    }),
    { numRuns: 25 },
  );
});
