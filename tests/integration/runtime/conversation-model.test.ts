import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import { delegate, isCritic, isRoot, requestsOf, MARKER, startHarness, testProfiles, type Harness } from './runtime-harness';

// Model-based test of conversations (issue 20): random sequences of new messages, swipes, edits of
// an earlier message, new chats, review decisions and worker stop/resume through the real runtime and scripted server,
// checked after each step against a small model of what the writer may read and which helpers run.

type Decision = 'approve' | 'edit' | 'discard' | 'lapse';

interface ConversationModel {
  chat: number;
  /** The message being answered in the open chat (1 = the first user message). */
  message: number;
  /** Bumped by an edit of an earlier message: every message after it is another message. */
  edits: number;
  /** What a swipe of each message may reuse: the text the user let stand, or nothing. */
  readable: Map<string, string | undefined>;
  /** Helper results nobody may read again (discarded, lapsed, or replaced by the user's edit). */
  unreadable: Set<string>;
  critiques: number;
}

interface Real {
  harness: Harness;
}

const messageKey = (model: ConversationModel): string => `${model.chat}/${model.edits}/${model.message}`;

function snapshotOf(model: ConversationModel): PromptSnapshot {
  const messages: PromptSnapshot['messages'] = [{ role: 'system', content: 'You are Mira, a storyteller.' }];
  for (let index = 1; index <= model.message; index += 1) {
    messages.push({ role: 'user', content: `Chat ${model.chat}, message ${index}${index === 1 && model.edits > 0 ? ` (edit ${model.edits})` : ''}.` });
    if (index < model.message) messages.push({ role: 'assistant', content: `Reply ${index}.` });
  }
  return { messages, temperature: 0.7, stream: false };
}

const rootSystemText = (harness: Harness, from: number): string => harness.server.requests.slice(from).find(isRoot)?.systemText ?? '';

/** A turn stopped by a worker stop while its root's first model call waits, then resumed by a new runtime. */
async function stopAndResume(harness: Harness, start: Parameters<Harness['start']>[0]) {
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
  harness.server.queue(isRoot, { toolCalls: [{ name: 'agent_await', arguments: { tasks: ['earlier-scene-critic'] } }] }, { content: 'Reply from what stands.' });
  return harness.newRuntime().resumeRun(suspended.run.id, { resolveModel: harness.resolveModel });
}

/** One turn of the open chat, after `move` changed which message it answers; the user decides as `decision`. */
class Turn implements fc.AsyncCommand<ConversationModel, Real> {
  constructor(
    readonly move: 'new-message' | 'swipe' | 'edit-earlier' | 'new-chat',
    readonly decision: Decision,
    /** A worker stop while the root works, then a resume on a new runtime (only where results are reused). */
    readonly stopped: boolean,
  ) {}

  check(): boolean {
    return true;
  }

  async run(model: ConversationModel, real: Real): Promise<void> {
    if (this.move === 'new-message' || model.message === 0) model.message += 1;
    else if (this.move === 'edit-earlier') model.edits += 1;
    else if (this.move === 'new-chat') {
      model.chat += 1;
      model.message = 1;
      model.edits = 0;
    }
    const { harness } = real;
    const key = messageKey(model);
    const reusable = model.readable.get(key);
    const from = harness.server.requests.length;
    const result = `Finding ${model.critiques + 1} of the critic.`;
    const rewritten = `The user rewrote finding ${model.critiques + 1}.`;
    if (reusable === undefined) {
      const wait = this.decision === 'lapse' ? 150 : 5_000;
      harness.server.queue(isRoot, { toolCalls: [delegate('scene-critic', 'Critique')] }, { toolCalls: [{ name: 'agent_await', arguments: { timeoutMs: wait } }] }, { content: 'Reply.' });
      harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: result } }] });
      const decision = this.decision;
      if (decision !== 'lapse') {
        void harness.nextEvent((event) => event.type === 'review-start').then((event) =>
          harness.runtime.reviewTask(event.runId, event.taskId as string, decision === 'edit' ? { kind: 'edit', text: rewritten } : { kind: decision }),
        );
      }
    } else if (!this.stopped) {
      harness.server.queue(isRoot, { content: 'Reply from what stands.' });
    }
    const start = { chat: { conversationId: `chat-${model.chat}` }, snapshot: snapshotOf(model) };
    const outcome = reusable !== undefined && this.stopped ? await stopAndResume(harness, start) : await harness.start(start);
    if (reusable !== undefined && this.stopped) {
      // The resumed run is the run that was stopped: it reads the result its system text offers.
      expect(harness.server.requests.filter(isRoot).at(-1)?.lastMessageText).toContain(reusable);
    }

    expect(outcome.run.status).toBe('completed');
    const system = rootSystemText(harness, from);
    if (reusable !== undefined) {
      // A swipe reuses exactly what the user let stand, and asks no helper again.
      expect(system).toContain('## From your earlier attempt at this reply');
      expect(system).toContain(reusable);
    } else {
      expect(system).not.toContain('## From your earlier attempt at this reply');
      model.critiques += 1;
      const stands = this.decision === 'approve' ? result : this.decision === 'edit' ? rewritten : undefined;
      if (stands === undefined || stands !== result) model.unreadable.add(result);
      model.readable.set(key, stands);
    }
    for (const gone of model.unreadable) expect(system).not.toContain(gone);
    expect(requestsOf(harness.server, MARKER.critic)).toHaveLength(model.critiques);
  }

  toString(): string {
    return `${this.move}(${this.decision}${this.stopped ? ', stopped' : ''})`;
  }
}

const turn = fc
  .tuple(fc.constantFrom('new-message', 'swipe', 'swipe', 'swipe', 'edit-earlier', 'new-chat') as fc.Arbitrary<Turn['move']>, fc.constantFrom<Decision>('approve', 'edit', 'approve', 'discard', 'lapse'), fc.boolean())
  .map(([move, decision, stopped]) => new Turn(move, decision, stopped));

test('across random turns a writer reads only what the user let stand, and a new message always asks its helpers', async () => {
  await fc.assert(
    fc.asyncProperty(fc.commands([turn], { maxCommands: 6 }), async (commands) => {
      const harness = await startHarness({ profiles: testProfiles({ critic: { review: 'ask' } }) });
      try {
        const model: ConversationModel = { chat: 1, message: 0, edits: 0, readable: new Map(), unreadable: new Set(), critiques: 0 };
        await fc.asyncModelRun(() => ({ model, real: { harness } }), commands);
      } finally {
        await harness.close();
      }
    }),
    { numRuns: 12 },
  );
}, 120_000);
