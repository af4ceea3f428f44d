import { expect } from 'vitest';
import type { ScriptedModelServer, ScriptedRequest } from '../support/scripted-model-server';
import { scenarioSettings, waitForEndedRuns } from './chat-turn-scenarios';
import { defaultDelegations } from './support/delegating-root-script';
import { evaluateIn, waitUntil, type EvaluatingHandle } from './support/evaluating-handle';
import { sendFixtureMessage, waitForFixtureReady } from './support/fixture-pages';
import type { FixtureServer } from './support/fixture-server';
import { readRunStore, writeSettings } from './support/settings';

/**
 * The spend cap in a browser (`defaults.maxRunTokens`): a turn whose first call already used more
 * tokens than the limit gets its delegation refused, the root writes the reply without tools, and the
 * side panel says the limit was reached. Shared by the Chromium and Firefox files.
 */

/** The limit the scenario sets; the turn's first call alone is well past it. */
export const TOKEN_LIMIT = 1_000;
export const REPLY_AT_LIMIT = 'Mara knocks once and waits. (written at the token limit)';
/** A phrase of the built-in root's instructions, which tells its requests apart. */
const ROOT_MARKER = "You write this turn's reply.";
/**
 * A long message, so that the first call is past the limit whether the endpoint reports usage or
 * Retinue estimates it; it starts with `label`, which becomes the run's title.
 */
const longMessage = (label: string) => `${label} ${'The wind pulls at her coat as the waves break on the rocks below. '.repeat(120)}`;

/** Writes the scenario settings with a token limit per run. */
export async function setTokenLimit(options: EvaluatingHandle, fixtures: FixtureServer, model: ScriptedModelServer): Promise<void> {
  const settings = scenarioSettings(fixtures, model);
  await writeSettings(options, { ...settings, defaults: { ...settings.defaults, maxRunTokens: TOKEN_LIMIT } });
}

/** Waits for the side panel to show the run titled `title` with its token limit note, and returns the note's text. */
export async function readTokenCapNote(panel: EvaluatingHandle, title: string): Promise<string> {
  return waitUntil(
    async () => {
      const shown = await evaluateIn(panel, () => ({
        title: document.querySelector('.run-view .run-title')?.textContent ?? '',
        note: document.querySelector('.run-view .token-cap-note')?.textContent ?? '',
      }), undefined);
      return shown.title.startsWith(title) && shown.note !== '' ? shown.note : undefined;
    },
    { description: `the side panel's token limit note on the run "${title}"`, timeoutMs: 20_000 },
  );
}

/**
 * Sends one long message on a loaded fixture page: the root's delegation is refused at the limit,
 * no helper is asked, the root's wrap-up (no tools, told of the limit) is the page's reply, and the
 * side panel says the limit was reached.
 */
export async function expectSpendCapStopsDelegation(options: {
  page: EvaluatingHandle;
  model: ScriptedModelServer;
  store: EvaluatingHandle;
  panel: EvaluatingHandle;
  /** Starts the message (and so the run's title), to tell this turn's run apart in the side panel. */
  label: string;
}): Promise<void> {
  const { model } = options;
  const critic = defaultDelegations[1]!;
  const isRoot = (request: ScriptedRequest) => request.systemText.includes(ROOT_MARKER);
  model.reset();
  model.queue(
    isRoot,
    {
      toolCalls: [{ name: 'agent_delegate', arguments: { agentId: critic.agentId, task: { title: critic.title, objective: critic.objective } } }],
      usage: { prompt_tokens: 4_900, completion_tokens: 100, total_tokens: 5_000 },
    },
    (request) => ({ content: request.toolNames.length === 0 && request.allText.includes('No new tasks can start.') ? REPLY_AT_LIMIT : 'The root was not told of the limit.' }),
  );
  const before = (await readRunStore(options.store)).runs.length;
  await waitForFixtureReady(options.page);

  const turn = await sendFixtureMessage(options.page, longMessage(options.label));

  expect(turn).toMatchObject({ status: 'done', reply: REPLY_AT_LIMIT });
  expect(model.requests.filter((request) => request.systemText.includes(critic.systemMarker))).toHaveLength(0);
  const refusal = model.requests.filter(isRoot)[1]?.body.messages.find((message) => message.role === 'tool');
  expect(String(refusal?.content)).toContain('No new task was started');
  const { runs, tasks } = await waitForEndedRuns(options.store, before + 1);
  const run = runs.at(-1);
  expect(run).toMatchObject({ status: 'completed' });
  expect(tasks.filter((task) => task.runId === run?.id)).toEqual([]);
  const note = await readTokenCapNote(options.panel, options.label);
  expect(note).toMatch(/^Token limit reached: [\d,]+ of 1,000 tokens\. No new tasks were started/);
}
