import { evaluateIn, waitUntil, type EvaluatingHandle } from './evaluating-handle';

/** One finished generation of a fixture chat page (`window.fixture.turns[i]`). */
export interface FixtureTurn {
  /** 'done' | 'stopped' | 'error' ('generating' while under way). */
  status: string;
  reply: string;
  reasoning: string;
  /** The error the page showed, from the `{error: {message}}` body or the stream. */
  error: string;
  httpStatus: number;
  streamed: boolean;
  /** SillyTavern page only: the generation type. */
  type?: string;
}

/** What a test can read of a fixture chat page's state. */
export interface FixtureState {
  ready: boolean;
  status: string;
  lastReply: string;
  lastReasoning: string;
  error: string;
  turns: FixtureTurn[];
}

interface FixtureWindow {
  fixture?: FixtureState & {
    send(text: string, type?: string): Promise<FixtureTurn>;
    generate?(type: string): Promise<FixtureTurn>;
    stop(): void;
  };
}

/**
 * Waits until a fixture chat page (openai-chat or sillytavern) has finished loading its script and
 * its first requests (the ping, or the CSRF token).
 *
 * @example
 * await page.goto(fixtures.pageUrl('/sillytavern/'));
 * await waitForFixtureReady(page);
 */
export async function waitForFixtureReady(page: EvaluatingHandle, timeoutMs = 15_000): Promise<void> {
  await waitUntil(() => evaluateIn(page, () => (window as FixtureWindow).fixture?.ready === true, undefined), {
    description: 'the fixture chat page to be ready (window.fixture.ready)',
    timeoutMs,
  });
}

/**
 * Sends a chat message as a person would and resolves with the finished turn. On the SillyTavern
 * page `type` picks the generation type (`normal` adds `text` as the user's message first).
 *
 * @example
 * const turn = await sendFixtureMessage(page, 'Hello');
 * expect(turn.reply).toBe('Hi there.');
 */
export async function sendFixtureMessage(page: EvaluatingHandle, text: string, type?: string): Promise<FixtureTurn> {
  return evaluateIn(page, 
    ({ message, generationType }: { message: string; generationType: string | undefined }) =>
      (window as FixtureWindow).fixture!.send(message, generationType),
    { message: text, generationType: type },
  );
}

/**
 * Starts sending a chat message without waiting for the answer (for Stop and progress tests);
 * follow with {@link waitForFixtureStatus}.
 *
 * @example
 * await startFixtureMessage(page, 'Hello');
 * await waitForFixtureStatus(page, 'generating');
 * await page.click('#stop');
 */
export async function startFixtureMessage(page: EvaluatingHandle, text: string, type?: string): Promise<void> {
  await evaluateIn(page, 
    ({ message, generationType }: { message: string; generationType: string | undefined }) => {
      void (window as FixtureWindow).fixture!.send(message, generationType);
    },
    { message: text, generationType: type },
  );
}

/** Aborts the page's generation, as its Stop button does. */
export async function stopFixtureGeneration(page: EvaluatingHandle): Promise<void> {
  await evaluateIn(page, () => (window as FixtureWindow).fixture!.stop(), undefined);
}

/** The page's state: status, last reply and reasoning, error, finished turns. */
export async function readFixtureState(page: EvaluatingHandle): Promise<FixtureState> {
  return evaluateIn(page, () => {
    const fixture = (window as FixtureWindow).fixture!;
    return JSON.parse(
      JSON.stringify({
        ready: fixture.ready,
        status: fixture.status,
        lastReply: fixture.lastReply,
        lastReasoning: fixture.lastReasoning,
        error: fixture.error,
        turns: fixture.turns,
      }),
    ) as FixtureState;
  }, undefined);
}

/**
 * Waits until the page's status is `status` ('generating', 'done', 'stopped', 'error', 'idle').
 *
 * @example
 * await waitForFixtureStatus(page, 'stopped');
 */
export async function waitForFixtureStatus(page: EvaluatingHandle, status: string, timeoutMs = 30_000): Promise<FixtureState> {
  return waitUntil(
    async () => {
      const state = await readFixtureState(page);
      return state.status === status ? state : undefined;
    },
    { description: `the fixture page's status to become "${status}"`, timeoutMs },
  );
}
