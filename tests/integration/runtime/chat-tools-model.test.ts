import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import { delegate, isChecker, isRoot, startHarness, testProfiles, type Harness } from './runtime-harness';

// Model-based test of the chat tools across turns: random sequences of new messages, swipes, edits
// of an earlier message and new chats, each turn a real run whose helper searches the chat. Checked
// after each turn against a model of the page: a run finds exactly the messages its page sent, by
// number, newest first; never the message a swipe replaces, an earlier message's text before an
// edit, or the previous chat.

interface ChatMessage {
  role: 'user' | 'assistant';
  /** Every message holds the shared word "tide" and its own token (`k7z`; no token is part of another). */
  token: string;
}

interface PageModel {
  chat: ChatMessage[];
  tokens: number;
  /** Tokens no later run may find: replaced by a swipe, overwritten by an edit, or of a closed chat. */
  gone: Set<string>;
}

interface Real {
  harness: Harness;
}

const SYSTEM = { role: 'system' as const, content: 'You are the narrator.' };
const nextToken = (model: PageModel): string => `k${(model.tokens += 1)}z`;
const textOf = (message: ChatMessage): string => `${message.role === 'user' ? 'The user' : 'The narrator'} speaks of the tide, ${message.token}.`;

function snapshotOf(messages: readonly ChatMessage[]): PromptSnapshot {
  return { messages: [SYSTEM, ...messages.map((message) => ({ role: message.role, content: textOf(message) }))], stream: false };
}

class Turn implements fc.AsyncCommand<PageModel, Real> {
  constructor(readonly move: 'new-message' | 'swipe' | 'edit-earlier' | 'new-chat') {}

  check(): boolean {
    return true;
  }

  async run(model: PageModel, { harness }: Real): Promise<void> {
    const swiping = this.move === 'swipe' && model.chat.at(-1)?.role === 'assistant';
    if (this.move === 'new-chat') {
      for (const message of model.chat) model.gone.add(message.token);
      model.chat = [];
    }
    if (this.move === 'edit-earlier' && model.chat[0]) {
      model.gone.add(model.chat[0].token);
      model.chat[0] = { ...model.chat[0], token: nextToken(model) };
    }
    if (!swiping) model.chat.push({ role: 'user', token: nextToken(model) });
    // What the page sends: a swipe leaves out the reply it replaces.
    const sent = swiping ? model.chat.slice(0, -1) : [...model.chat];
    const replaced = swiping ? (model.chat.at(-1) as ChatMessage).token : undefined;
    const reply: ChatMessage = { role: 'assistant', token: nextToken(model) };
    const goneQueries = [...model.gone, ...(replaced ? [replaced] : [])];
    harness.server.queue(isRoot, { toolCalls: [delegate('continuity-checker', 'Check')] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: textOf(reply) });
    harness.server.queue(
      isChecker,
      { toolCalls: [{ name: 'chat_search', arguments: { query: 'TIDE', limit: 25 } }, ...goneQueries.map((query) => ({ name: 'chat_search', arguments: { query } }))] },
      { toolCalls: [{ name: 'task_return', arguments: { summary: 'Checked.' } }] },
    );

    const outcome = await harness.start({ snapshot: snapshotOf(sent), chat: { conversationId: 'the-chat', messageIndex: sent.length } });

    expect(outcome.run.status).toBe('completed');
    const searches = (await harness.journal(outcome.run.id)).filter((event) => event.type === 'chat-searched' && event.taskId !== undefined);
    const expected = sent.map((_, index) => index + 2).reverse();
    expect(searches[0]?.data).toMatchObject({ query: 'TIDE', found: sent.length, messages: expected });
    expect(searches.slice(1).map((event) => [event.data.query, event.data.found])).toEqual(goneQueries.map((query) => [query, 0]));
    if (replaced) model.gone.add(replaced);
    if (swiping) model.chat[model.chat.length - 1] = reply;
    else model.chat.push(reply);
  }

  toString(): string {
    return this.move;
  }
}

const turn = fc.constantFrom<Turn['move']>('new-message', 'new-message', 'swipe', 'swipe', 'edit-earlier', 'new-chat').map((move) => new Turn(move));

test('across random turns a helper finds exactly the messages its page sent, and nothing a swipe, an edit or a new chat took away', async () => {
  await fc.assert(
    fc.asyncProperty(fc.commands([turn], { maxCommands: 5 }), async (commands) => {
      const harness = await startHarness({
        profiles: testProfiles({ checker: { tools: { allow: ['chat.search'] }, budget: { maxRounds: 4, maxToolCalls: 30 } } }),
      });
      try {
        await fc.asyncModelRun(() => ({ model: { chat: [], tokens: 0, gone: new Set<string>() }, real: { harness } }), commands);
      } finally {
        await harness.close();
      }
    }),
    { numRuns: 6 },
  );
}, 120_000);
