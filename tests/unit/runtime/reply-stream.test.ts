import { describe, expect, test } from 'vitest';
import { createRootReplyStream, type ReplyStreamEvent } from '../../../src/runtime/reply-stream';

function record() {
  const events: ReplyStreamEvent[] = [];
  const stream = createRootReplyStream((event) => events.push(event));
  const reply = () => events.flatMap((event) => (event.kind === 'reply-delta' ? [event.text] : [])).join('');
  const reasoning = () => events.flatMap((event) => (event.kind === 'reasoning-delta' ? [event.text] : [])).join('');
  return { events, stream, reply, reasoning };
}

describe('the root reply stream', () => {
  test('a plain reply goes out delta by delta as it arrives', () => {
    const { events, stream, reply } = record();
    const turn = stream.startTurn();
    turn.text('The rain ');
    expect(reply()).toBe('The rain ');
    turn.text('stopped.');
    turn.end(false);
    expect(events).toEqual([
      { kind: 'reply-delta', text: 'The rain ' },
      { kind: 'reply-delta', text: 'stopped.' },
    ]);
    expect(stream.lastTurnStreamed).toBe(true);
  });

  test('reasoning streams apart from the reply, a leading think block too', () => {
    const { stream, reply, reasoning } = record();
    const turn = stream.startTurn();
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
    const turn = stream.startTurn();
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
    const turn = stream.startTurn();
    turn.toolCallDelta();
    turn.text('Hidden.');
    turn.end(true);
    expect(events).toEqual([]);
  });

  test('a Hermes call after prose is held and dropped when the turn calls tools', () => {
    const { stream, reply } = record();
    const turn = stream.startTurn();
    turn.text('Checking. <tool_');
    turn.text('call>{"name": "agent_list", "arguments": {}}</tool_call>');
    turn.end(true);
    expect(reply()).toBe('Checking. ');
  });

  test('held text is released when the turn ends without tool calls', () => {
    const { stream, reply } = record();
    const turn = stream.startTurn();
    turn.text('{"mood": "calm"}');
    expect(reply()).toBe('');
    turn.end(false);
    expect(reply()).toBe('{"mood": "calm"}');
  });

  test('a retry after shown text marks it discarded and starts over', () => {
    const { events, stream, reply } = record();
    const turn = stream.startTurn();
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
    const turn = stream.startTurn();
    turn.text('Cut');
    turn.abandon();
    turn.text('more');
    expect(stream.lastTurnStreamed).toBe(false);
  });
});
