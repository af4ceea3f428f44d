import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import type { StartRunOptions } from '../../../src/runtime/agent-runtime';
import { isRoot, startHarness, type Harness } from './runtime-harness';

// Model-based test of agent memory (issue 25 item 1): random sequences of new messages, swipes,
// swiping back to an earlier swipe, edits of an earlier message, new chats, failed turns and
// worker stop/resume, through the real runtime and scripted server. Each turn the root reads
// memory/state.md and writes its own; the model says which swipe's memory the read must see.

/** One reply on screen (a swipe) and the memory its turn left (undefined: the turn left none of its own). */
interface Swipe {
  reply: string;
  memory: string | undefined;
}

interface Exchange {
  user: string;
  swipes: Swipe[];
  shown: number;
}

interface MemoryModel {
  chat: number;
  line: Exchange[];
  turns: number;
  /** Page-named chats, or identities Retinue guesses from the chat's opening. */
  named: boolean;
}

interface Real {
  harness: Harness;
}

const shownSwipe = (exchange: Exchange): Swipe => exchange.swipes[exchange.shown] as Swipe;

/** The memory that stands after `exchanges`: the newest exchange whose turn left memory of its own. */
function memoryAfter(exchanges: readonly Exchange[]): string | undefined {
  for (let index = exchanges.length - 1; index >= 0; index -= 1) {
    const memory = shownSwipe(exchanges[index] as Exchange).memory;
    if (memory !== undefined) return memory;
  }
  return undefined;
}

/** The page's request: every exchange with the reply on screen, then `user` waiting for its answer. */
function snapshotOf(model: MemoryModel, before: readonly Exchange[], user: string): PromptSnapshot {
  const messages: PromptSnapshot['messages'] = [{ role: 'system', content: `You are Mira. Chat ${model.chat}.` }];
  for (const exchange of before) messages.push({ role: 'user', content: exchange.user }, { role: 'assistant', content: shownSwipe(exchange).reply });
  messages.push({ role: 'user', content: user });
  return { messages, stream: false };
}

const readState = { name: 'workspace_read', arguments: { path: 'memory/state.md' } };

/** A turn whose root's first call is lost to a worker stop, then resumed by a new runtime. */
async function stopAndResume(harness: Harness, start: Partial<StartRunOptions>) {
  let unblock: () => void = () => undefined;
  const blocked = new Promise<void>((resolve) => (unblock = resolve));
  const calling = harness.nextEvent((event) => event.type === 'model-call-start');
  harness.queueLater(isRoot, async () => (await blocked, { content: 'lost to the stop' }));
  const running = harness.start(start);
  await calling;
  await harness.runtime.shutdown();
  unblock();
  const suspended = await running;
  expect(suspended.suspended).toBe(true);
  return { resume: () => harness.newRuntime().resumeRun(suspended.run.id, { resolveModel: harness.resolveModel }) };
}

type Move = 'new-message' | 'swipe' | 'swipe-back' | 'edit-earlier' | 'new-chat';
type Ending = 'reply' | 'fails' | 'stopped';

class Turn implements fc.AsyncCommand<MemoryModel, Real> {
  constructor(
    readonly move: Move,
    readonly ending: Ending,
    /** Which earlier message an edit changes, or which swipe a swipe-back shows (taken modulo). */
    readonly pick: number,
  ) {}

  check(): boolean {
    return true;
  }

  /** Moves the model to the turn about to run: the exchanges before it and the user message it answers. */
  private prepare(model: MemoryModel): { before: Exchange[]; user: string; swipeOf?: Exchange } {
    model.turns += 1;
    const fresh = `Chat ${model.chat}, message ${model.turns}.`;
    const last = model.line.at(-1);
    if (this.move === 'new-chat' || !last) {
      if (this.move === 'new-chat') model.chat += 1;
      model.line = [];
      return { before: [], user: `Chat ${model.chat}, message ${model.turns}.` };
    }
    if (this.move === 'swipe') return { before: model.line.slice(0, -1), user: last.user, swipeOf: last };
    if (this.move === 'edit-earlier') {
      const index = this.pick % model.line.length;
      model.line = model.line.slice(0, index);
      return { before: model.line, user: `Chat ${model.chat}, message ${model.turns} (an edit).` };
    }
    if (this.move === 'swipe-back' && last.swipes.length > 1) last.shown = (last.shown + 1 + (this.pick % (last.swipes.length - 1))) % last.swipes.length;
    return { before: model.line, user: fresh };
  }

  async run(model: MemoryModel, real: Real): Promise<void> {
    const { harness } = real;
    const { before, user, swipeOf } = this.prepare(model);
    const expected = memoryAfter(before);
    const written = `State after turn ${model.turns}.`;
    const snapshot = snapshotOf(model, before, user);
    const start = { snapshot, ...(model.named ? { chat: { conversationId: `chat-${model.chat}` } } : {}) };
    const from = harness.server.requests.length;
    const write = { name: 'workspace_write', arguments: { path: 'memory/state.md', content: written } };

    let swipe: Swipe;
    if (this.ending === 'fails') {
      harness.server.queue(isRoot, { toolCalls: [readState] }, { toolCalls: [write] }, { fault: 'status', status: 401, message: 'bad key' });
      const outcome = await harness.start(start);
      expect(outcome.run.status).toBe('failed');
      // The page showed its own reply; this turn's writes are not memory.
      swipe = { reply: `The page's own reply ${model.turns}.`, memory: undefined };
    } else {
      const reply = `Reply ${model.turns}.`;
      const stopped = this.ending === 'stopped' ? await stopAndResume(harness, start) : undefined;
      harness.server.queue(isRoot, { toolCalls: [readState] }, { toolCalls: [write] }, { content: reply });
      const outcome = stopped ? await stopped.resume() : await harness.start(start);
      expect(outcome.run.status).toBe('completed');
      expect(outcome.reply).toBe(reply);
      swipe = { reply, memory: written };
    }

    const roots = harness.server.requests.slice(from).filter(isRoot).filter((request) => request.lastMessage?.role === 'tool');
    const read = roots[0]?.lastMessageText ?? '';
    if (expected === undefined) expect(read).toContain('There is no file "memory/state.md"');
    else expect(read).toBe(expected);

    if (swipeOf) {
      swipeOf.swipes.push(swipe);
      swipeOf.shown = swipeOf.swipes.length - 1;
    } else {
      model.line = [...before, { user, swipes: [swipe], shown: 0 }];
    }
  }

  toString(): string {
    return `${this.move}(${this.ending}, ${this.pick})`;
  }
}

const turn = fc
  .tuple(
    fc.constantFrom<Move>('new-message', 'new-message', 'swipe', 'swipe', 'swipe-back', 'swipe-back', 'edit-earlier', 'new-chat'),
    fc.constantFrom<Ending>('reply', 'reply', 'reply', 'fails', 'stopped'),
    fc.nat(10),
  )
  .map(([move, ending, pick]) => new Turn(move, ending, pick));

test('across random turns each run starts from the memory of the line on screen: its own swipe’s, never a sibling’s', async () => {
  await fc.assert(
    fc.asyncProperty(fc.commands([turn], { maxCommands: 8 }), fc.boolean(), async (commands, named) => {
      const harness = await startHarness();
      try {
        const model: MemoryModel = { chat: 1, line: [], turns: 0, named };
        await fc.asyncModelRun(() => ({ model, real: { harness } }), commands);
      } finally {
        await harness.close();
      }
    }),
    { numRuns: 12 },
  );
}, 180_000);
