import { describe, expect, test } from 'vitest';
import { createRootReplyStream, OPENING_MAX_CHARS, pastOpening, type ReplyStreamEvent } from '../../../src/runtime/reply-stream';

/** A root stream; by default the root is done with its helpers, so turns stream from the first word. */
function record(helpersDone = true) {
  const events: ReplyStreamEvent[] = [];
  const stream = createRootReplyStream((event) => events.push(event), () => helpersDone);
  const reply = () => events.flatMap((event) => (event.kind === 'reply-delta' ? [event.text] : [])).join('');
  const reasoning = () => events.flatMap((event) => (event.kind === 'reasoning-delta' ? [event.text] : [])).join('');
  return { events, stream, reply, reasoning };
}

describe('the root reply stream', () => {
  test('a plain reply goes out delta by delta as it arrives', () => {
    const { events, stream, reply } = record();
    const turn = stream.startTurn(['agent_delegate']);
    turn.text('The rain ');
    // Whitespace at the end waits for what follows it: the final reading trims it off a reply's end.
    expect(reply()).toBe('The rain');
    turn.text('stopped.');
    turn.end(false);
    expect(events).toEqual([
      { kind: 'reply-delta', text: 'The rain' },
      { kind: 'reply-delta', text: ' stopped.' },
    ]);
    expect(stream.lastTurnStreamed).toBe(true);
  });

  test('reasoning streams apart from the reply, a leading think block too', () => {
    const { stream, reply, reasoning } = record();
    const turn = stream.startTurn(['agent_delegate']);
    turn.reasoning('Native reasoning. ');
    turn.text('<thi');
    expect(reply()).toBe('');
    turn.text('nk>Weighing the duke');
    expect(reasoning()).toBe('Native reasoning. Weighing the duke');
    turn.text("'s words.</th");
    turn.text('ink>\n\nShe bows.');
    turn.end(false);
    expect(reasoning()).toBe("Native reasoning. Weighing the duke's words.");
    expect(reply()).toBe('She bows.');
  });

  test('text after a tool-call delta never goes out, and shown text is marked discarded', () => {
    const { events, stream, reply } = record();
    const turn = stream.startTurn(['agent_delegate']);
    turn.text('Let me ask the critic.');
    turn.toolCallDelta();
    turn.text(' More words.');
    turn.end(true);
    expect(reply()).toBe('Let me ask the critic.');
    expect(events.at(-1)).toEqual({ kind: 'reply-discarded' });
    expect(stream.lastTurnStreamed).toBe(false);
  });

  test('a turn that begins with a tool call shows nothing', () => {
    const { events, stream } = record();
    const turn = stream.startTurn(['agent_delegate']);
    turn.toolCallDelta();
    turn.text('Hidden.');
    turn.end(true);
    expect(events).toEqual([]);
  });

  test('a Hermes call after prose is held and dropped when the turn calls tools', () => {
    const { stream, reply } = record();
    const turn = stream.startTurn(['agent_delegate']);
    turn.text('Checking. <tool_');
    turn.text('call>{"name": "agent_list", "arguments": {}}</tool_call>');
    turn.end(true);
    expect(reply()).toBe('Checking.');
  });

  test('held text is released when the turn ends without tool calls', () => {
    const { stream, reply } = record();
    const turn = stream.startTurn(['agent_delegate']);
    turn.text('{"mood": "calm"}');
    expect(reply()).toBe('');
    turn.end(false);
    expect(reply()).toBe('{"mood": "calm"}');
  });

  test('a retry after shown text marks it discarded and starts over', () => {
    const { events, stream, reply } = record();
    const turn = stream.startTurn(['agent_delegate']);
    turn.text('Half a rep');
    turn.retry();
    turn.text('A whole reply.');
    turn.end(false);
    expect(events).toEqual([
      { kind: 'reply-delta', text: 'Half a rep' },
      { kind: 'reply-discarded' },
      { kind: 'reply-delta', text: 'A whole reply.' },
    ]);
    expect(reply()).toBe('Half a repA whole reply.');
  });

  test('an abandoned turn is not a streamed reply', () => {
    const { stream } = record();
    const turn = stream.startTurn(['agent_delegate']);
    turn.text('Cut');
    turn.abandon();
    turn.text('more');
    expect(stream.lastTurnStreamed).toBe(false);
  });
});

describe('the opening of a turn before the root is done with its helpers', () => {
  test('a one-sentence preamble before a tool call never goes out', () => {
    const { events, stream } = record(false);
    const turn = stream.startTurn(['agent_delegate']);
    turn.text('I will ask ');
    turn.text('the retinue first.');
    turn.toolCallDelta();
    turn.end(true);
    expect(events).toEqual([]);
  });

  test('a reply is held only until it is past its first sentence, then streams', () => {
    const { stream, reply } = record(false);
    const turn = stream.startTurn(['agent_delegate']);
    turn.text('The storm ');
    turn.text('has passed.');
    expect(reply()).toBe('');
    turn.text(' Mara');
    expect(reply()).toBe('The storm has passed. Mara');
    turn.text(' climbs.');
    expect(reply()).toBe('The storm has passed. Mara climbs.');
    turn.end(false);
    expect(stream.lastTurnStreamed).toBe(true);
  });

  test('a short reply that never passes its opening goes out when the turn ends', () => {
    const { stream, reply } = record(false);
    const turn = stream.startTurn(['agent_delegate']);
    turn.text('Yes.');
    expect(reply()).toBe('');
    turn.end(false);
    expect(reply()).toBe('Yes.');
  });

  test('a long opening without a sentence end is shown anyway', () => {
    const { stream, reply } = record(false);
    const turn = stream.startTurn(['agent_delegate']);
    turn.text('a'.repeat(OPENING_MAX_CHARS + 1));
    expect(reply()).toHaveLength(OPENING_MAX_CHARS + 1);
  });

  test('a turn offered no tools streams from the first word', () => {
    const { stream, reply } = record(false);
    const turn = stream.startTurn([]);
    turn.text('Final');
    expect(reply()).toBe('Final');
  });
});

test.each([
  ['She bows. He', true],
  ['She bows.', false],
  ['她鞠躬。他', true],
  ['Line one\nLine two', true],
  ['"Go!" she', true],
  ['Mr', false],
])('pastOpening(%j) is %s', (text, expected) => {
  expect(pastOpening(text)).toBe(expected);
});

describe('a model known to close its reasoning with a bare </think>', () => {
  test('after its helpers, the turn streams as reasoning until the close, then as reply', () => {
    const { events, stream, reply, reasoning } = record();
    const turn = stream.startTurn(['agent_delegate'], { reasoningFirst: true });
    turn.text('  The critic says the boots are wet. ');
    turn.text('I should mention them.</th');
    expect(reply()).toBe('');
    expect(reasoning()).toBe('The critic says the boots are wet. I should mention them.');
    turn.text('ink>\n\nHer boots squelch. ');
    turn.text('She laughs.');
    turn.end(false);
    expect(reasoning()).toBe('The critic says the boots are wet. I should mention them.');
    expect(reply()).toBe('Her boots squelch. She laughs.');
    expect(events.some((event) => event.kind === 'reply-discarded')).toBe(false);
    expect(stream.pageReply('Her boots squelch. She laughs.')).toBe('Her boots squelch. She laughs.');
  });

  test('in a wrap-up too (no tools offered)', () => {
    const { stream, reply, reasoning } = record(false);
    const turn = stream.startTurn([], { reasoningFirst: true });
    for (const piece of ['Time is up. ', 'Answer now.', '</think>', 'The ferry ', 'leaves at dawn.']) turn.text(piece);
    turn.end(false);
    expect(reasoning()).toBe('Time is up. Answer now.');
    expect(reply()).toBe('The ferry leaves at dawn.');
  });

  test('a turn that never closes its reasoning was all reply: it goes out whole at the end', () => {
    const { stream, reply } = record();
    const turn = stream.startTurn(['agent_delegate'], { reasoningFirst: true });
    turn.text('The ferry leaves at dawn. ');
    expect(reply()).toBe('');
    turn.text('Mara waits.');
    turn.end(false);
    expect(reply()).toBe('The ferry leaves at dawn. Mara waits.');
    expect(stream.pageReply('The ferry leaves at dawn. Mara waits.')).toBe('The ferry leaves at dawn. Mara waits.');
  });

  test('an explicit <think> block still reads as one', () => {
    const { stream, reply, reasoning } = record();
    const turn = stream.startTurn(['agent_delegate'], { reasoningFirst: true });
    turn.text('<think>Short.</think>Hello.');
    turn.end(false);
    expect(reasoning()).toBe('Short.');
    expect(reply()).toBe('Hello.');
  });

  test('without that knowledge, reasoning released before a late bare close stays on the page, set apart', () => {
    const { stream, reply } = record();
    const turn = stream.startTurn(['agent_delegate']);
    turn.text('The critic says the boots are wet. ');
    turn.text('</think>Her boots squelch.');
    turn.end(false);
    expect(reply()).toBe('The critic says the boots are wet.Her boots squelch.');
    expect(stream.pageReply('Her boots squelch.')).toBe('The critic says the boots are wet.\n\nHer boots squelch.');
  });
});

test('a turn that is only the beginning of a reasoning opener still goes out at its end', () => {
  const { stream, reply } = record();
  const turn = stream.startTurn(['agent_delegate']);
  turn.text('<thi');
  turn.end(false);
  expect(reply()).toBe('<thi');
});
