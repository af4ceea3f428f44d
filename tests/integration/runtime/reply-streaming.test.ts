import { afterEach, beforeEach, expect, test } from 'vitest';
import type { ReplyStreamEvent } from '../../../src/runtime/reply-stream';
import { pageReplyText } from '../../support/page-reply-text';
import { delegateCritic, isCritic, isRoot, startHarness, testProfiles, type Harness } from './runtime-harness';

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

interface Seen {
  at: number;
  event: ReplyStreamEvent;
}

/** Starts a run that records every reply-stream event with the time it came. */
function startRecording(options: { signal?: AbortSignal } = {}) {
  const seen: Seen[] = [];
  const done = harness.start({ ...options, onReplyStream: (event) => seen.push({ at: Date.now(), event }) });
  const textOf = (kind: 'reply-delta' | 'reasoning-delta') =>
    seen.flatMap(({ event }) => (event.kind === kind ? [event.text] : [])).join('');
  /** The reply text as a page's writer builds it: after a discard, the next text starts after a blank line. */
  const pageText = () => pageReplyText(seen.map(({ event }) => event));
  return { seen, done, reply: () => textOf('reply-delta'), reasoning: () => textOf('reasoning-delta'), pageText };
}

const LONG_REPLY = Array.from({ length: 12 }, (_, index) => `Sentence ${index} of the reply goes on.`).join(' ');

async function waitFor(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test("a long reply reaches the listener delta by delta, over the model's own writing time", async () => {
  harness.server.queue(isRoot, { content: LONG_REPLY, slowly: { pieces: 40, delayMs: 25 } });

  const recording = startRecording();
  const actual = await recording.done;

  expect(actual.reply).toBe(LONG_REPLY);
  expect(actual.replyStreamed).toBe(true);
  expect(recording.reply()).toBe(LONG_REPLY);
  const deltas = recording.seen.filter(({ event }) => event.kind === 'reply-delta');
  const written = harness.server.requests[0]?.contentWrittenAt ?? [];
  expect(written.length).toBeGreaterThanOrEqual(35);
  // Many steps, spread over most of the time the model took to write them.
  expect(deltas.length).toBeGreaterThanOrEqual(30);
  const modelSpread = (written.at(-1) ?? 0) - (written[0] ?? 0);
  const listenerSpread = (deltas.at(-1)?.at ?? 0) - (deltas[0]?.at ?? 0);
  expect(listenerSpread).toBeGreaterThan(modelSpread * 0.6);
  // The first words arrive long before the model has finished writing.
  expect(deltas[0]?.at ?? Infinity).toBeLessThan((written[0] ?? 0) + modelSpread / 2);
});

test('a preamble the root writes before its tool calls is never sent; the reply after its helpers streams from the first word', async () => {
  const finalReply = 'The duel is tense now. Rain hammers the roof.';
  harness.server.queue(
    isRoot,
    { content: 'Let me ask the critic first.', toolCalls: [delegateCritic] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: finalReply, slowly: { pieces: 20, delayMs: 5 } },
  );
  harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'More tension.' } }] });

  const recording = startRecording();
  const actual = await recording.done;

  expect(actual.reply).toBe(finalReply);
  expect(actual.replyStreamed).toBe(true);
  expect(recording.seen.map(({ event }) => event.kind)).not.toContain('reply-discarded');
  expect(recording.reply()).toBe(finalReply);
  const firstDelta = recording.seen.find(({ event }) => event.kind === 'reply-delta')?.event;
  expect(firstDelta).toEqual({ kind: 'reply-delta', text: finalReply.slice(0, Math.ceil(finalReply.length / 20)) });
});

test('a preamble the page was shown is part of the recorded reply, and a reply committed from a file follows it on the page', async () => {
  harness.server.queue(
    isRoot,
    { content: 'Thinking aloud. Writing the reply to a file.', toolCalls: [{ name: 'workspace_write', arguments: { path: 'output/reply.md', content: 'The committed reply.' } }] },
    { toolCalls: [{ name: 'workspace_commit', arguments: { path: 'output/reply.md' } }] },
  );

  const recording = startRecording();
  const actual = await recording.done;

  expect(actual.reply).toBe('Thinking aloud. Writing the reply to a file.\n\nThe committed reply.');
  expect(recording.pageText()).toBe(actual.reply);
  expect(actual.replyStreamed).toBe(true);
});

test('a Hermes-style tool call written after some prose is held back while the turn streams', async () => {
  const prose = 'I will ask the critic about the duel. ';
  const call = '<tool_call>{"name": "agent_list", "arguments": {}}</tool_call>';
  // The stream stops after the call's text and never ends, so what streamed is all the gate let through.
  harness.server.queue(isRoot, { fault: 'hang', afterChunks: 1 + 12, turn: { content: prose + call, slowly: { pieces: 12, delayMs: 5 } } });
  const stop = new AbortController();

  const recording = startRecording({ signal: stop.signal });
  await waitFor(() => (harness.server.requests[0]?.contentWrittenAt.length ?? 0) === 12, 'the model wrote the whole call');
  await waitFor(() => recording.reply().length >= prose.length - 1, 'the prose streamed');
  await new Promise((resolve) => setTimeout(resolve, 100));

  expect(recording.reply()).toBe(prose.slice(0, recording.reply().length));
  expect(recording.reply().trimEnd()).toBe(prose.trimEnd());
  expect(recording.seen.map(({ event }) => (event.kind === 'reply-delta' ? event.text : '')).join('')).not.toContain('<');
  stop.abort();
  const actual = await recording.done;
  expect(actual.run.status).toBe('cancelled');
  await waitFor(() => harness.server.requests[0]?.outcome === 'client-closed', 'the server saw the request go away');
});

test("a reasoning model's reasoning streams to the reasoning channel before its reply, apart from it", async () => {
  const reasoning = 'The duke is lying; she should notice the wet boots.';
  harness.server.queue(isRoot, { reasoning, content: 'She glances at his wet boots.', slowly: { pieces: 10, delayMs: 5 } });

  const recording = startRecording();
  const actual = await recording.done;

  expect(recording.reasoning()).toBe(reasoning);
  expect(recording.reply()).toBe('She glances at his wet boots.');
  expect(actual.reply).toBe('She glances at his wet boots.');
  const kinds = recording.seen.map(({ event }) => event.kind);
  expect(kinds.lastIndexOf('reasoning-delta')).toBeLessThan(kinds.indexOf('reply-delta'));
  expect(kinds.filter((kind) => kind === 'reasoning-delta').length).toBeGreaterThan(5);
});

test('a think block at the start of the content streams as reasoning, not as reply', async () => {
  harness.server.queue(isRoot, { content: '<think>Check the boots.</think>\n\nShe glances down.', slowly: { pieces: 12, delayMs: 2 } });

  const recording = startRecording();
  await recording.done;

  expect(recording.reasoning()).toBe('Check the boots.');
  expect(recording.reply()).toBe('She glances down.');
});

test("children's turns never stream to the page", async () => {
  harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, { content: 'Final.' });
  harness.server.queue(isCritic, { content: 'Critic musing.', reasoning: 'Critic thinking.', toolCalls: [{ name: 'task_return', arguments: { summary: 'Fine.' } }] });

  const recording = startRecording();
  await recording.done;

  expect(recording.reply()).toBe('Final.');
  expect(recording.reasoning()).toBe('');
});

test.each([
  ['bare </think> reasoning', 'The user greets me; answer kindly.</think>\n\nGood evening. The inn is warm tonight.'],
  ['a harmony analysis', '<|channel|>analysis<|message|>Greet back briefly.<|end|>Good evening. The inn is warm tonight.'],
  ['a JSON call example naming no offered tool', 'A call looks like this:\n{"name": "get_weather", "arguments": {"city": "Paris"}}'],
])('the page ends with the recorded reply when the root writes %s', async (_name, content) => {
  harness.server.queue(isRoot, { content, slowly: { pieces: 9, delayMs: 5 } });

  const recording = startRecording();
  const actual = await recording.done;

  expect(actual.reply).toBe(recording.pageText());
  expect(actual.reply).not.toContain('</think>');
  expect(actual.reply).not.toContain('<|');
  expect(actual.reply.length).toBeGreaterThan(0);
});

test('a model that closes its reasoning with a bare </think> on every turn: the page shows the recorded reply, and once the model is known, no reasoning', async () => {
  const reasoning = 'The user wants the critic first; then I answer.';
  const finalReply = 'The lamp gutters. Mara steps inside and bars the door behind her.';
  const queueTurn = () => {
    harness.server.queue(
      isRoot,
      { content: `${reasoning}</think>\n\n`, toolCalls: [delegateCritic], slowly: { pieces: 6, delayMs: 5 } },
      { content: 'The critic should be done.</think>', toolCalls: [{ name: 'agent_await', arguments: {} }] },
      { content: `The critic wants tension. I will keep it short.</think>\n\n${finalReply}`, slowly: { pieces: 20, delayMs: 5 } },
    );
    harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'More tension.' } }] });
  };

  // The first answer ever from this model: its reasoning read past the opening before the close came.
  queueTurn();
  const first = startRecording();
  const firstRun = await first.done;
  expect(firstRun.reply).toBe(first.pageText());
  expect(firstRun.reply.endsWith(finalReply)).toBe(true);

  // From then on the model is known: every turn is reasoning until its `</think>`.
  queueTurn();
  const later = startRecording();
  const laterRun = await later.done;
  expect(laterRun.reply).toBe(finalReply);
  expect(later.pageText()).toBe(finalReply);
  expect(later.seen.map(({ event }) => event.kind)).not.toContain('reply-discarded');
  expect(later.reasoning()).toContain(reasoning);
  expect(later.reasoning()).toContain('The critic wants tension. I will keep it short.');
});

test('a text call the root writes in its wrap-up never reaches the page, streamed', async () => {
  await harness.close();
  harness = await startHarness({ profiles: testProfiles({ root: { budget: { maxRounds: 2, maxToolCalls: 4 } } }) });
  harness.server.queue(
    isRoot,
    { toolCalls: [delegateCritic] },
    { toolCalls: [{ name: 'agent_await', arguments: {} }] },
    { content: 'Mara lights the lamp.\n<tool_call>\n{"name": "agent_list", "arguments": {}}\n</tool_call>', slowly: { pieces: 12, delayMs: 5 } },
  );
  harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'More tension.' } }] });

  const recording = startRecording();
  const actual = await recording.done;

  const wrapUp = harness.server.requests.filter(isRoot).at(-1);
  expect(wrapUp?.toolNames).toEqual([]);
  expect(actual.reply).toBe('Mara lights the lamp.');
  expect(recording.pageText()).toBe(actual.reply);
});
