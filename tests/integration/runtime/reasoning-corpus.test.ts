import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { z } from 'zod';
import type { ReplyStreamEvent } from '../../../src/runtime/reply-stream';
import { pageReplyText } from '../../support/page-reply-text';
import type { ScriptedTurn } from '../../support/scripted-model-types';
import { delegateCritic, isCritic, isRoot, startHarness, type Harness } from './runtime-harness';

/**
 * Every reasoning shape of `shared/corpora` (answers as DeepSeek, llama.cpp, vLLM, OpenRouter,
 * Ollama and templated models send them), replayed byte for byte through the real SDK as the root's
 * answer: the page ends with the recorded reply, and neither holds the reasoning.
 */
const corpus = z
  .array(z.object({ id: z.string(), transport: z.enum(['sse', 'json']), example: z.union([z.array(z.string()), z.record(z.string(), z.unknown())]) }))
  .parse(JSON.parse(readFileSync(new URL('../../fixtures/corpora/reasoning-shapes.json', import.meta.url), 'utf8')));
const REPLY = 'Hello! How can I help?';

let harness: Harness;
beforeEach(async () => {
  harness = await startHarness();
});
afterEach(async () => {
  await harness.close();
});

function verbatimTurn(shape: (typeof corpus)[number]): ScriptedTurn {
  return { verbatim: Array.isArray(shape.example) ? { sse: shape.example } : { json: shape.example } };
}

describe.each(corpus.map((shape) => [shape.id, shape] as const))('corpus reasoning shape %s', (_id, shape) => {
  test.each([
    ['answered at once', false],
    ['after its helpers', true],
  ] as const)('%s: the page ends with the recorded reply, without the reasoning', async (_when, afterHelpers) => {
    if (afterHelpers) {
      harness.server.queue(isRoot, { toolCalls: [delegateCritic] }, { toolCalls: [{ name: 'agent_await', arguments: {} }] }, verbatimTurn(shape));
      harness.server.queue(isCritic, { toolCalls: [{ name: 'task_return', arguments: { summary: 'Fine.' } }] });
    } else harness.server.queue(isRoot, verbatimTurn(shape));
    const events: ReplyStreamEvent[] = [];

    const actual = await harness.start({ onReplyStream: (event) => events.push(event) });

    expect(actual.run.status).toBe("completed");
    expect(actual.reply).toBe(REPLY);
    expect(pageReplyText(events)).toBe(actual.reply);
  });
});
