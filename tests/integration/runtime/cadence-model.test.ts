import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import type { ScriptedRequest } from '../../support/scripted-model-server';
import { isRoot, MARKER, requestsOf, startHarness, testProfiles, type Harness } from './runtime-harness';

// Model-based test of cadence (issue 25 item 2): random new messages, swipes and new chats through the
// real runtime and scripted server, checked after each turn against a model of which helpers run:
// an every-turn helper (the critic) and an every-2-turns helper (the checker) run on the turns they
// are due, and a swipe of a message whose result the ledger holds runs neither again.

interface CadenceModel {
  chat: number;
  /** The message being answered in the open chat (1 = the first user message). */
  message: number;
  /** Messages (chat/message) each helper already has a result for. */
  held: { critic: Set<string>; checker: Set<string> };
}

interface Real {
  harness: Harness;
}

const keyOf = (model: CadenceModel): string => `${model.chat}/${model.message}`;
const due = { critic: () => true, checker: (message: number) => (message - 1) % 2 === 0 };

function snapshotOf(model: CadenceModel): PromptSnapshot {
  const messages: PromptSnapshot['messages'] = [{ role: 'system', content: 'You are Mira, a storyteller.' }];
  for (let index = 1; index <= model.message; index += 1) {
    messages.push({ role: 'user', content: `Chat ${model.chat}, message ${index}.` });
    if (index < model.message) messages.push({ role: 'assistant', content: `Reply ${index}.` });
  }
  return { messages, temperature: 0.7, stream: false };
}

/** The root waits for the helpers Retinue started for it, then replies; helpers return at once. */
function scriptEveryone(harness: Harness): void {
  harness.server.script((request: ScriptedRequest) => {
    if (!isRoot(request)) return { toolCalls: [{ name: 'task_return', arguments: { summary: 'Checked.' } }] };
    const waited = request.toolResultCount > 0;
    return !waited && request.systemText.includes('## Helpers already working on this turn') ? { toolCalls: [{ name: 'agent_await', arguments: {} }] } : { content: 'Reply.' };
  });
}

class Turn implements fc.AsyncCommand<CadenceModel, Real> {
  constructor(readonly move: 'new-message' | 'swipe' | 'new-chat') {}

  check(model: CadenceModel): boolean {
    return this.move !== 'swipe' || model.message > 0;
  }

  async run(model: CadenceModel, real: Real): Promise<void> {
    if (this.move === 'new-chat' || model.message === 0) {
      model.chat += this.move === 'new-chat' ? 1 : 0;
      model.message = 1;
    } else if (this.move === 'new-message') {
      model.message += 1;
    }
    const { harness } = real;
    const before = { critic: requestsOf(harness.server, MARKER.critic).length, checker: requestsOf(harness.server, MARKER.checker).length };
    const outcome = await harness.start({ chat: { conversationId: `chat-${model.chat}` }, snapshot: snapshotOf(model) });
    expect(outcome.reply).toBe('Reply.');
    const key = keyOf(model);
    for (const helper of ['critic', 'checker'] as const) {
      const ran = requestsOf(harness.server, MARKER[helper]).length > before[helper];
      const expected = due[helper](model.message) && !model.held[helper].has(key);
      expect({ helper, key, ran }).toEqual({ helper, key, ran: expected });
      if (ran) model.held[helper].add(key);
    }
  }

  toString(): string {
    return this.move;
  }
}

const turn = fc.constantFrom<Turn['move']>('new-message', 'new-message', 'swipe', 'swipe', 'new-chat').map((move) => new Turn(move));

test('across random turns a helper runs on the turns its cadence names, and never again on a swipe the ledger holds', async () => {
  await fc.assert(
    fc.asyncProperty(fc.commands([turn], { maxCommands: 7 }), async (commands) => {
      const harness = await startHarness({ profiles: testProfiles({ critic: { runs: 'every turn' }, checker: { runs: 'every 2 turns' } }) });
      scriptEveryone(harness);
      try {
        const model: CadenceModel = { chat: 1, message: 0, held: { critic: new Set(), checker: new Set() } };
        await fc.asyncModelRun(() => ({ model, real: { harness } }), commands);
      } finally {
        await harness.close();
      }
    }),
    { numRuns: 10 },
  );
}, 150_000);
