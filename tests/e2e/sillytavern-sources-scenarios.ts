import { expect } from 'vitest';
import type { ScriptedModelServer } from '../support/scripted-model-server';
import { runDelegatingTurn, waitForEndedRuns } from './chat-turn-scenarios';
import type { EvaluatingHandle } from './support/evaluating-handle';
import { waitForFixtureReady } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { readRunStore } from './support/settings';

/**
 * Chat turns on the SillyTavern-shaped page whose source is Claude or Google: the fixture backend
 * answers as SillyTavern does for that source (`support/sillytavern-source-shapes.ts`), so Retinue
 * must call non-streamed, read tool calls from Claude's blocks or Gemini's parts, and answer the page
 * in that source's own events.
 */
export const SOURCE_PAGES: readonly [string, Record<string, string>][] = [
  ['Claude, streamed', { source: 'claude', model: 'claude-sonnet-4-5', stream: '1' }],
  ['Claude, as JSON', { source: 'claude', model: 'claude-sonnet-4-5', stream: '0' }],
  ['Google AI Studio, streamed', { source: 'makersuite', model: 'gemini-2.5-flash', stream: '1' }],
  ['Vertex AI, as JSON', { source: 'vertexai', model: 'gemini-2.5-flash', stream: '0' }],
];

/** A delegated turn on a source page (already open): the reply shows in the page, every call went whole, the run completed. */
export async function expectDelegatedSourceTurn(setup: {
  page: EvaluatingHandle;
  query: Record<string, string>;
  model: ScriptedModelServer;
  fixtures: FixtureServer;
  store: EvaluatingHandle;
}): Promise<void> {
  const { page, query, model, fixtures, store } = setup;
  await waitForFixtureReady(page);
  const runsBefore = (await readRunStore(store)).runs.length;
  const callsBefore = fixtures.sillyTavernGenerations.length;
  const turn = await runDelegatingTurn(page, model, 'Tell me about the lighthouse.');
  expect(turn.streamed).toBe(query.stream === '1');
  if (query.stream === '1') expect(turn.reasoning).toMatch(/scene-critic.*started/);
  expect(turn.reply).toContain('Do you open it?');
  const calls = fixtures.sillyTavernGenerations.slice(callsBefore);
  // The page's own turn never reached the backend: every call there was Retinue's, through the page, whole.
  expect(calls.length).toBeGreaterThanOrEqual(4);
  expect(calls.map((call) => [call.source, call.stream, call.refusedWith])).toEqual(calls.map(() => [query.source, false, undefined]));
  const { runs } = await waitForEndedRuns(store, runsBefore + 1);
  expect(runs.at(-1)).toMatchObject({ status: 'completed', adapter: 'sillytavern' });
}
