import { expect } from 'vitest';
import type { ScriptedModelServer, ScriptedRequest } from '../support/scripted-model-server';
import { defaultDelegations, scriptDelegatingRoot } from './support/delegating-root-script';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, startFixtureMessage, waitForFixtureReady, waitForFixtureStatus } from './support/fixture-pages';
import { readReplyGrowth, startSamplingReplyGrowth } from './support/reply-growth';
import { readRunStore, readStorage, writeSettings, writeStorage, type ExtensionContextHandle } from './support/settings';
import { waitForEndedRuns } from './chat-turn-scenarios';
import { builtInProfiles } from '../../src/profiles/built-in-profiles';
import type { SettingsInput } from '../../src/settings/schema';

/** The scripted root's final reply: many sentences, so it is long enough to watch it grow. */
export const LONG_REPLY = Array.from(
  { length: 16 },
  (_, index) => `Wave ${index + 1} breaks on the rocks below the dark tower, and Mara counts it.`,
).join(' ');
/** How the scripted model writes it: 40 deltas, 60 ms apart (2.4 s), as in issue 14's report. */
const WRITING = { pieces: 40, delayMs: 60 };

/** The root request that wrote the final reply (offered agent tools, after the tool results). */
function finalReplyRequest(model: ScriptedModelServer): ScriptedRequest | undefined {
  return model.requests.filter((request) => request.toolNames.includes('agent_delegate') && request.contentWrittenAt.length > 0).at(-1);
}

/**
 * A delegating turn whose root writes a long final reply slowly, on one fixture page: the reply's
 * length in the page grows in many steps over most of the model's writing time, and it equals the
 * model's text, with no progress lines and none of the text the root wrote beside its tool calls.
 */
export async function runStreamedReplyTurn(page: EvaluatingHandle, model: ScriptedModelServer, liveReplySelector: string): Promise<void> {
  model.reset();
  scriptDelegatingRoot(model, { reply: () => LONG_REPLY, replySlowly: WRITING });
  await waitForFixtureReady(page);
  await startSamplingReplyGrowth(page, liveReplySelector);
  const turn = await sendFixtureMessage(page, 'Mara reaches the lighthouse.');

  expect(turn.status).toBe('done');
  expect(turn.reply).toBe(LONG_REPLY);
  expect(turn.reply).not.toContain('I will ask the retinue first.');
  expect(turn.reasoning).toMatch(/scene-critic.*done/);
  for (const delegation of defaultDelegations) expect(turn.reasoning).not.toContain(delegation.finding);
  const written = finalReplyRequest(model)?.contentWrittenAt ?? [];
  expect(written.length).toBeGreaterThanOrEqual(WRITING.pieces - 2);
  const samples = (await readReplyGrowth(page)).filter((sample) => sample.length > 0);
  const firstWrite = written[0] ?? 0;
  const lastWrite = written.at(-1) ?? 0;
  // Many steps, not one: a busy 2-core machine may merge some deltas, never most of them.
  expect(samples.length).toBeGreaterThanOrEqual(WRITING.pieces / 3);
  // The page shows the first words while the model is still writing, well before it has finished...
  expect(samples[0]?.at ?? Infinity).toBeLessThan(firstWrite + (lastWrite - firstWrite) / 3);
  // ...and goes on growing over most of the model's writing time.
  expect((samples.at(-1)?.at ?? 0) - (samples[0]?.at ?? 0)).toBeGreaterThan((lastWrite - firstWrite) / 2);
  expect(samples.at(-1)?.length).toBe(LONG_REPLY.length);
}

/**
 * Stop in the page while the reply streams: the model call ends at once (the scripted server sees
 * the request go away before it wrote the rest) and the page keeps the words it had.
 */
export async function stopDuringStreamedReply(page: EvaluatingHandle, model: ScriptedModelServer, liveReplySelector: string): Promise<void> {
  model.reset();
  scriptDelegatingRoot(model, { reply: () => LONG_REPLY, replySlowly: { pieces: 60, delayMs: 100 } });
  await waitForFixtureReady(page);
  await startSamplingReplyGrowth(page, liveReplySelector);
  await startFixtureMessage(page, 'Mara reaches the lighthouse.');
  await waitUntil(async () => (await readReplyGrowth(page)).length >= 3, { description: 'the reply to start growing in the page' });
  await evaluateIn(page, () => (window as unknown as { fixture: { stop(): void } }).fixture.stop(), undefined);
  await waitForFixtureStatus(page, 'stopped');

  const request = await waitUntil(() => {
    const found = finalReplyRequest(model);
    return found && found.outcome !== 'pending' ? found : undefined;
  }, { description: "the model server to see the reply's request end", timeoutMs: 10_000 });
  expect(request.outcome).toBe('client-closed');
  expect(request.contentWrittenAt.length).toBeLessThan(60);
  const shown = Math.max(0, ...(await readReplyGrowth(page)).map((sample) => sample.length));
  expect(shown).toBeGreaterThan(0);
  expect(shown).toBeLessThan(LONG_REPLY.length);
}

/** A final reply whose reasoning or call markup the final reading drops, and the reply the page must end with. */
export interface ReadingShape {
  name: string;
  /** The root's final answer, as the model writes it. */
  content: string;
  /** What the page and the run's record must both end with. */
  reply: string;
  /** What the root writes beside its tool calls before the reply (default: a plain preamble). */
  delegatingContent?: string;
  awaitingContent?: string;
  /** The root's round cap: 2 makes the reply a wrap-up (no tools offered) after delegate and await. */
  rootRounds?: number;
}

export const READING_SHAPES: readonly ReadingShape[] = [
  // gpt-oss without a harmony parser.
  { name: 'a harmony analysis', content: '<|channel|>analysis<|message|>Answer in one line.<|end|>Mara lights the lamp.', reply: 'Mara lights the lamp.' },
  // QwQ and R1 distills: the chat template opens `<think>` in the prompt, so every answer closes it bare.
  {
    name: 'bare </think> reasoning on every turn',
    delegatingContent: 'The user wants the retinue first.</think>',
    awaitingContent: 'Now wait for them.</think>',
    content: 'Their notes are in. I will keep it short and quote them.</think>\n\nMara lights the lamp.',
    reply: 'Mara lights the lamp.',
  },
  {
    name: 'a text call in the wrap-up',
    rootRounds: 2,
    content: 'Mara lights the lamp.\n<tool_call>\n{"name": "agent_list", "arguments": {}}\n</tool_call>',
    reply: 'Mara lights the lamp.',
  },
];

/**
 * One reading of an answer (issue 22): the root's final reply carries reasoning or call markup the
 * final reading drops; the page ends with the clean reply, with none of that markup, and it is the
 * reply the run recorded. `options` is an extension page (settings and the run store).
 */
export async function runReadingShapeTurn(page: EvaluatingHandle, model: ScriptedModelServer, shape: ReadingShape, options: ExtensionContextHandle): Promise<void> {
  model.reset();
  const settings = (await readStorage(options, 'settings')) as SettingsInput;
  if (shape.rootRounds !== undefined) {
    const root = builtInProfiles.find((profile) => profile.id === 'root')!;
    await writeSettings(options, { ...settings, profiles: [...(settings.profiles ?? []), { ...root, budget: { ...root.budget, maxRounds: shape.rootRounds } }] });
    // The wrap-up offers no tools at all.
    model.script((request) => (request.toolNames.length === 0 ? { content: shape.content, slowly: { pieces: 12, delayMs: 20 } } : undefined));
  }
  scriptDelegatingRoot(model, {
    reply: () => shape.content,
    replySlowly: { pieces: 12, delayMs: 20 },
    ...(shape.delegatingContent === undefined ? {} : { delegatingContent: shape.delegatingContent }),
    ...(shape.awaitingContent === undefined ? {} : { awaitingContent: shape.awaitingContent }),
  });
  try {
    await waitForFixtureReady(page);
    const before = (await readRunStore(options)).runs.length;
    const turn = await sendFixtureMessage(page, 'Mara reaches the lighthouse.');

    expect(turn.status).toBe('done');
    expect(turn.reply.trim()).toBe(shape.reply);
    const { runs } = await waitForEndedRuns(options, before + 1);
    expect(runs.at(-1)?.reply).toBe(turn.reply.trim());
    if (shape.rootRounds !== undefined) expect(model.requests.some((request) => request.toolNames.length === 0)).toBe(true);
  } finally {
    await writeSettings(options, settings);
    // What the model taught (its answers close reasoning bare) must not shape the next tests' turns.
    await writeStorage(options, { bareThinkEndpoints: {} });
  }
}
