import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { TextCallFormat } from '../../support/scripted-model-server';
import { isCritic, isRoot, snapshot, startHarness, type Harness } from './runtime-harness';

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

const delegateCritic = { name: 'agent_delegate', arguments: { agentId: 'scene-critic', task: { title: 'Critique the duel', objective: 'Say what would make the duel stronger.' } } };
const awaitCritic = { name: 'agent_await', arguments: { tasks: ['scene-critic'] } };
const criticReturns = { name: 'task_return', arguments: { summary: 'The duel needs tension.', findings: ['Slow the first exchange.'], confidence: 'high' } };

/** The root delegates to the critic, waits, and answers from the critique; the critic returns at once. */
function scriptDelegatedTurn(): void {
  harness.server.queue(
    isRoot,
    { content: 'I will ask the critic.', toolCalls: [delegateCritic] },
    { toolCalls: [awaitCritic] },
    (request) => ({ content: request.allText.includes('Slow the first exchange') ? 'She slows the first exchange.' : 'No critique seen.' }),
  );
  harness.server.queue(isCritic, { toolCalls: [criticReturns] });
}

async function modelCallEnds(runId: string): Promise<Record<string, unknown>[]> {
  return (await harness.journal(runId)).filter((event) => event.type === 'model-call-end').map((event) => event.data);
}

describe('an endpoint that refuses tools', () => {
  test('the run switches to the prompted protocol and still delegates', async () => {
    harness.server.modes.refuseTools = true;
    harness.server.modes.textCalls = 'hermes';
    scriptDelegatedTurn();

    const actual = await harness.start();

    expect(actual.run.status).toBe('completed');
    expect(actual.reply).toBe('She slows the first exchange.');
    const [task] = await harness.store.listTasks(actual.run.id);
    expect(task).toMatchObject({ status: 'completed', targetProfileId: 'scene-critic' });
    // Refused once, then remembered for this endpoint: the child never offers native tools.
    expect(harness.server.requests.filter((request) => request.outcome === 'status')).toHaveLength(1);
    expect(harness.server.requests.filter(isCritic).every((request) => request.body.tools === undefined)).toBe(true);
    expect((await modelCallEnds(actual.run.id)).filter((data) => data.ok === true).every((data) => data.toolProtocol === 'prompted')).toBe(true);
  });
});

describe('a model that writes its tool calls as text', () => {
  const formats: TextCallFormat[] = ['hermes', 'fenced-json', 'bare-json', 'llama-python-tag', 'mistral', 'qwen3-coder', 'deepseek'];
  test.each(formats)('%s: the turn is delegated and the reply shows no call text', async (format) => {
    harness.server.modes.textCalls = format;
    scriptDelegatedTurn();

    const actual = await harness.start();

    expect(actual.run.status).toBe('completed');
    expect(actual.reply).toBe('She slows the first exchange.');
    expect((await harness.store.listTasks(actual.run.id)).map((task) => task.status)).toEqual(['completed']);
  });
});

describe('a context window smaller than the chat with Retinue added', () => {
  const longChat = {
    ...snapshot,
    messages: [
      { role: 'system' as const, content: 'You are Mira, a storyteller.' },
      ...Array.from({ length: 12 }, (_, index) => ({ role: index % 2 === 0 ? ('user' as const) : ('assistant' as const), content: `Old turn ${index}: ${'the rain keeps falling '.repeat(40)}` })),
      { role: 'user' as const, content: 'She draws her sword and faces the duke.' },
    ],
  };

  test('the oldest chat messages go until it fits, and the reply is the model answer', async () => {
    const full = JSON.stringify(longChat.messages).length;
    harness.server.modes.contextWindowChars = full + 500;
    harness.server.queue(isRoot, (request) => ({ content: request.lastMessageText === 'She draws her sword and faces the duke.' ? 'The duke parries.' : 'wrong last message' }));

    const actual = await harness.start({ snapshot: longChat });

    expect(actual.run.status).toBe('completed');
    expect(actual.reply).toBe('The duke parries.');
    const answered = harness.server.requests.find((request) => request.outcome === 'answered');
    expect(answered?.systemText).toContain('You are Mira, a storyteller.');
    expect(answered?.allText).not.toContain('Old turn 0:');
    const sizes = harness.server.requests.map((request) => JSON.stringify(request.body.messages).length);
    expect(new Set(sizes).size).toBe(sizes.length);
  });

  test('older tool results become pointers before any chat message goes', async () => {
    harness.server.queue(
      isRoot,
      { toolCalls: [{ name: 'workspace_write', arguments: { path: 'summaries/plan.md', content: 'x'.repeat(4_000) } }] },
      { toolCalls: [{ name: 'workspace_read', arguments: { path: 'summaries/plan.md' } }] },
      (request) => {
        harness.server.modes.contextWindowChars = JSON.stringify(request.body.messages).length + JSON.stringify(request.body.tools).length - 1;
        return { toolCalls: [{ name: 'workspace_list', arguments: {} }] };
      },
      { content: 'Done with the plan.' },
    );

    const actual = await harness.start();

    expect(actual.reply).toBe('Done with the plan.');
    const last = harness.server.requests.at(-1);
    expect(last?.allText).toContain('left out to fit the model');
    expect(last?.allText).toContain('The hall is silent');
  });

  test('when nothing left out makes it fit, the run ends with context-too-long', async () => {
    harness.server.modes.contextWindowChars = 500;

    const actual = await harness.start({ snapshot: longChat });

    expect(actual.run.status).toBe('failed');
    expect(actual.run.error?.code).toBe('context-too-long');
    const sizes = harness.server.requests.map((request) => JSON.stringify(request.body.messages).length);
    expect(new Set(sizes).size).toBe(sizes.length);
  });
});

describe('answers are checked', () => {
  test('reasoning only, stopped by length: one nudge, the answer is the reply and the reasoning is journaled apart', async () => {
    harness.server.queue(isRoot, { reasoning: 'The duke is left-handed…', finishReason: 'length' }, { content: '<think>Keep it short.</think>The duke parries.' });

    const actual = await harness.start();

    expect(actual.run.status).toBe('completed');
    expect(actual.reply).toBe('The duke parries.');
    const [end] = await modelCallEnds(actual.run.id);
    expect(end?.reasoning).toBe('Keep it short.');
  });

  test('empty again after the nudge: the run ends with empty-answer, never an empty reply', async () => {
    harness.server.script((request) => (isRoot(request) ? { reasoning: 'Thinking…', finishReason: 'length' } : undefined));

    const actual = await harness.start();

    expect(actual.run.status).toBe('failed');
    expect(actual.run.error?.code).toBe('empty-answer');
  });

  test('a stream cut cleanly is retried and the whole answer is the reply', async () => {
    harness.server.queue(isRoot, { content: 'The duke parries and the rain', cleanCut: true }, { content: 'The duke parries; the rain hisses on steel.' });

    const actual = await harness.start();

    expect(actual.reply).toBe('The duke parries; the rain hisses on steel.');
  });

  test('cut every time: the run ends with cut-answer, never the half sentence', async () => {
    harness.server.script((request) => (isRoot(request) ? { content: 'The duke parries and the rain', cleanCut: true } : undefined));

    const actual = await harness.start();

    expect(actual.run.status).toBe('failed');
    expect(actual.run.error?.code).toBe('cut-answer');
    expect(actual.reply).toBe('');
  });
});
