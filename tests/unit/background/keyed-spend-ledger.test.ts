import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createKeyedSpendLedger, EXPECTED_FIRST_CALL_TOKENS, type KeyedSpendLedger, type KeyedSpendReservation } from '../../../src/background/keyed-spend-ledger';
import type { SiteLending } from '../../../src/settings/connection-lending';

const BUDGET = 50_000;
const NOW = Date.UTC(2026, 11, 2, 12);

interface Model {
  /** Tokens settled for the site so far (what the store holds). */
  spent: number;
  callTokens: number;
}
interface Real {
  ledger: KeyedSpendLedger;
  lending: SiteLending;
  open: KeyedSpendReservation[];
}

const lendingAt = (spentToday: number): SiteLending => ({ origin: 'https://chat.example.com', mayUse: () => true, spentToday, budget: BUDGET });

/** A run's helper starts a keyed call: it gets a place, or falls back to the page's model. */
class StartCall implements fc.Command<Model, Real> {
  check = () => true;
  run(_model: Model, real: Real) {
    const place = real.ledger.reserve(real.lending, NOW);
    if (place) real.open.push(place);
  }
  toString = () => 'start';
}
/** One call under way ends: it used its tokens (or failed, and is cancelled). */
class EndCall implements fc.Command<Model, Real> {
  constructor(
    readonly index: number,
    readonly failed: boolean,
  ) {}
  check = () => true;
  run(model: Model, real: Real) {
    if (real.open.length === 0) return;
    const [place] = real.open.splice(this.index % real.open.length, 1);
    if (this.failed) place?.cancel();
    else {
      place?.settle(model.callTokens);
      model.spent += model.callTokens;
    }
    // However calls interleave, the day ends at most one call past its budget.
    expect(model.spent).toBeLessThanOrEqual(BUDGET + model.callTokens);
  }
  toString = () => `end ${this.index}${this.failed ? ' (failed)' : ''}`;
}

test('runs of one site starting and ending keyed calls in any order end the day at most one call past its budget', () => {
  fc.assert(
    fc.property(
      fc.integer({ min: 100, max: EXPECTED_FIRST_CALL_TOKENS }),
      fc.integer({ min: 0, max: BUDGET }),
      fc.commands([fc.constant(new StartCall()), fc.tuple(fc.nat(8), fc.boolean()).map(([index, failed]) => new EndCall(index, failed))], { size: 'large' }),
      (callTokens, spentBefore, commands) => {
        const real: Real = { ledger: createKeyedSpendLedger({ save: async () => undefined }), lending: lendingAt(spentBefore), open: [] };
        fc.modelRun(() => ({ model: { spent: spentBefore, callTokens }, real }), commands);
      },
    ),
    { numRuns: 300 },
  );
});

test('with nothing under way a call may start while any of the budget is left; a spent day refuses', () => {
  const ledger = createKeyedSpendLedger({ save: async () => undefined });
  expect(ledger.reserve(lendingAt(BUDGET - 1), NOW)).toBeDefined();
  expect(ledger.isSpent(lendingAt(BUDGET), NOW)).toBe(true);
  expect(ledger.reserve(lendingAt(BUDGET), NOW)).toBeUndefined();
});
