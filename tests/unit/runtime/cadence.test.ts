import { describe, expect, it } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import { cadenceOf, isDueOnTurn, planCadence, turnNumberOf } from '../../../src/runtime/cadence';
import type { EarlierResult } from '../../../src/runtime/earlier-results';
import { profileSchema, runsSchema } from '../../../src/settings/schema';
import { buildTask } from '../../support/record-builders';

const profile = (id: string, runs: string) => profileSchema.parse({ id, name: id, description: 'd', systemPrompt: 'p', runs });
const chatOf = (users: number): PromptSnapshot => ({
  messages: [{ role: 'system', content: 's' }, ...Array.from({ length: users }, (_, index) => [{ role: 'user' as const, content: `u${index}` }, { role: 'assistant' as const, content: `a${index}` }]).flat()],
});

describe('cadence', () => {
  it('reads the words a profile stores, and the schema refuses others with the ones it takes', () => {
    expect(cadenceOf('when asked')).toEqual({ kind: 'when-asked' });
    expect(cadenceOf('every turn')).toEqual({ kind: 'every-turns', turns: 1 });
    expect(cadenceOf('every 12 turns')).toEqual({ kind: 'every-turns', turns: 12 });
    expect(cadenceOf('after the reply')).toEqual({ kind: 'after-reply' });
    expect(cadenceOf('on demand')).toEqual({ kind: 'on-demand' });
    for (const wrong of ['every 1 turns', 'every 100 turns', 'every 02 turns', 'sometimes', 'Every turn']) {
      const parsed = runsSchema.safeParse(wrong);
      expect({ wrong, ok: parsed.success }).toEqual({ wrong, ok: false });
    }
    expect(JSON.stringify(runsSchema.safeParse('sometimes').error?.issues)).toContain('every N turns');
  });

  it('counts turns by user messages and is due on the first turn and every N-th after it', () => {
    expect(turnNumberOf(chatOf(0))).toBe(1);
    expect(turnNumberOf(chatOf(4))).toBe(4);
    const everyThird = cadenceOf('every 3 turns');
    expect([1, 2, 3, 4, 5, 6, 7].filter((turn) => isDueOnTurn(everyThird, turn))).toEqual([1, 4, 7]);
    expect(isDueOnTurn(cadenceOf('after the reply'), 1)).toBe(false);
  });

  it('plans the turn: start-of-turn helpers due, after-the-reply ones, never the writer, and none the ledger holds for this message', () => {
    const profiles = [profile('root', 'every turn'), profile('tracker', 'every turn'), profile('summary', 'after the reply'), profile('rare', 'every 2 turns'), profile('critic', 'when asked')];
    const held: EarlierResult = {
      name: 'earlier-tracker',
      title: 't',
      capsule: { workspaceKey: 'tracker', status: 'completed', summary: 's', findings: [], warnings: [], suggestedNextActions: [], questionsForCaller: [], artifacts: [] } as unknown as EarlierResult['capsule'],
      editedByUser: false,
      kind: 'same-message',
      task: buildTask({ targetProfileId: 'tracker' }),
    };
    const turnTwo = planCadence({ profiles, rootProfileId: 'root', snapshot: chatOf(2), earlier: [] });
    expect(turnTwo.atStart.map((entry) => entry.id)).toEqual(['tracker']);
    expect(turnTwo.afterReply.map((entry) => entry.id)).toEqual(['summary']);
    const swipe = planCadence({ profiles, rootProfileId: 'root', snapshot: chatOf(3), earlier: [held] });
    expect(swipe.atStart.map((entry) => entry.id)).toEqual(['rare']);
    expect(swipe.heldByLedger.map((entry) => entry.id)).toEqual(['tracker']);
    const carried = planCadence({ profiles, rootProfileId: 'root', snapshot: chatOf(3), earlier: [{ ...held, kind: 'since-last-reply' }] });
    expect(carried.atStart.map((entry) => entry.id)).toEqual(['tracker', 'rare']);
  });
});
