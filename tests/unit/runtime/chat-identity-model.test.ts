import fc from 'fast-check';
import { expect, test } from 'vitest';
import type { PromptSnapshot, SnapshotMessage } from '../../../src/hosts/prompt-snapshot';
import type { ChatIdentity, PageChatIdentity } from '../../../src/records/chat-identity';
import { chatIdentityOf, mayCarryToNextTurn, mayReuseForSameMessage } from '../../../src/runtime/chat-identity';

/**
 * A model-based test of identities over random conversations: new messages, regenerates, edits of an
 * earlier message and new chats (often with the same opening) on three page shapes. After each step
 * the new run's identity is checked against every earlier run: a new message never reuses anything,
 * a regenerate reuses its previous attempt exactly when the identity is more than a guess, and
 * results cross between two chats only where their histories are the same words (the limit of a
 * guess), never by reuse for the same message.
 */

type Shape = 'messages' | 'routed' | 'whole-log';
interface Chat {
  number: number;
  shape: Shape;
  system: string;
  history: SnapshotMessage[];
  /** How often its opening was edited (a guessed conversation is named by its opening). */
  edits: number;
}
interface Run {
  chat: number;
  edits: number;
  identity: ChatIdentity;
  /** The words of the history the run was asked for (what a guess can see). */
  words: string;
  /** The words before its last user message: the turn before it. */
  previousWords: string | undefined;
}
interface Real {
  chats: Chat[];
  runs: Run[];
  replies: number;
}
type Model = { chats: number };

const FIXED_USER_LINE = '[Continue the chat log below.]';

function snapshotOf(chat: Chat): PromptSnapshot {
  if (chat.shape !== 'whole-log') return { messages: [{ role: 'system', content: chat.system }, ...chat.history] };
  const log = chat.history.map((message) => `\n${message.role === 'user' ? 'You' : 'Mara'}: ${String(message.content)}`).join('');
  return { messages: [{ role: 'system', content: chat.system }, { role: 'user', content: FIXED_USER_LINE }, { role: 'assistant', content: `${log}\nMara:` }] };
}

const wordsOf = (history: readonly SnapshotMessage[]): string => JSON.stringify(history.map((message) => [message.role, message.content]));

/** Runs a turn on the chat's current history and checks the new identity against every earlier run. */
function runTurn(real: Real, chat: Chat, step: 'new-message' | 'regenerate'): void {
  const page: PageChatIdentity | undefined = chat.shape === 'routed' ? { conversationId: `url:#/chat/conv-${chat.number}000`, basis: 'url' } : undefined;
  const identity = chatIdentityOf(snapshotOf(chat), page);
  const lastUser = chat.history.map((message) => message.role).lastIndexOf('user');
  const previousUser = chat.history.slice(0, lastUser).map((message) => message.role).lastIndexOf('user');
  const run: Run = { chat: chat.number, edits: chat.edits, identity, words: wordsOf(chat.history), previousWords: previousUser >= 0 ? wordsOf(chat.history.slice(0, previousUser + 1)) : undefined };
  // One conversation per chat; on a guess, an edit of its opening starts another (nothing is carried then).
  const sameChat = real.runs.filter((earlier) => earlier.chat === chat.number && (chat.shape === 'routed' || earlier.edits === chat.edits));
  if (sameChat[0]) expect(identity.conversationId).toBe(sameChat[0].identity.conversationId);
  for (const earlier of real.runs) {
    const reuse = mayReuseForSameMessage(earlier.identity, identity);
    if (earlier.chat !== chat.number) {
      expect(reuse).toBe(false);
      if (mayCarryToNextTurn(earlier.identity, identity)) expect(run.previousWords).toBe(earlier.words);
      continue;
    }
    if (step === 'new-message' || earlier.words !== run.words) expect(reuse).toBe(false);
    else expect(reuse).toBe(identity.basis !== 'guessed');
  }
  real.runs.push(run);
  real.replies += 1;
  chat.history.push({ role: 'assistant', content: `Reply ${real.replies}.` });
}

const current = (real: Real): Chat => real.chats.at(-1) as Chat;

class NewMessage implements fc.Command<Model, Real> {
  constructor(readonly text: string) {}
  check = () => true;
  run(_model: Model, real: Real): void {
    current(real).history.push({ role: 'user', content: this.text });
    runTurn(real, current(real), 'new-message');
  }
  toString = () => `new message ${JSON.stringify(this.text)}`;
}

class Regenerate implements fc.Command<Model, Real> {
  check = () => true;
  run(_model: Model, real: Real): void {
    const chat = current(real);
    if (chat.history.at(-1)?.role !== 'assistant') return;
    chat.history.pop();
    runTurn(real, chat, 'regenerate');
  }
  toString = () => 'regenerate';
}

class EditEarlier implements fc.Command<Model, Real> {
  constructor(readonly text: string) {}
  check = () => true;
  run(_model: Model, real: Real): void {
    const chat = current(real);
    const first = chat.history.findIndex((message) => message.role === 'user');
    if (first < 0) return;
    chat.history[first] = { role: 'user', content: `${this.text} (edited)` };
    chat.edits += 1;
  }
  toString = () => `edit the first message to ${JSON.stringify(this.text)}`;
}

class NewChat implements fc.Command<Model, Real> {
  constructor(readonly shape: Shape, readonly system: string) {}
  check = () => true;
  run(model: Model, real: Real): void {
    model.chats += 1;
    real.chats.push({ number: model.chats, shape: this.shape, system: this.system, history: [], edits: 0 });
  }
  toString = () => `new ${this.shape} chat with ${JSON.stringify(this.system)}`;
}

const text = fc.constantFrom('Hi!', 'Hello.', 'Where is the lamp?', 'Go on.');
const commands = [
  text.map((words) => new NewMessage(words)),
  fc.constant(new Regenerate()),
  text.map((words) => new EditEarlier(words)),
  fc.tuple(fc.constantFrom<Shape>('messages', 'routed', 'whole-log'), fc.constantFrom('You are Mara.', 'You are Brann.')).map(([shape, system]) => new NewChat(shape, system)),
];

test('over random conversations, a new message runs its helpers afresh, a regenerate reuses only on a sure identity, and nothing crosses chats but identical words', () => {
  fc.assert(
    fc.property(fc.constantFrom<Shape>('messages', 'routed', 'whole-log'), fc.commands(commands, { maxCommands: 30 }), (shape, steps) => {
      const real: Real = { chats: [{ number: 1, shape, system: 'You are Mara.', history: [], edits: 0 }], runs: [], replies: 0 };
      fc.modelRun(() => ({ model: { chats: 1 }, real }), steps);
    }),
    { numRuns: 200 },
  );
});
