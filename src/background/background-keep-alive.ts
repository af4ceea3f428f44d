import { browser } from 'wxt/browser';

/**
 * How often the background pings the extension API while it holds itself awake. Both browsers unload
 * an idle background after 30 s by default (Chrome's service worker, Firefox's event page through
 * `extensions.background.idle.timeout`); an extension API call made by the background resets that
 * timer in both. Firefox ignores port messages for it, so the bridge's `keep-alive` alone is not enough.
 */
export const BACKGROUND_HEARTBEAT_MS = 5_000;

/** Holds the background awake while work is in flight; lets it idle out once nothing holds it. */
export interface BackgroundKeepAlive {
  /**
   * Holds the background awake until the returned release is called (calling it again does nothing).
   *
   * @example
   * const release = keepAlive.hold();
   * try { await run(); } finally { release(); }
   */
  hold(): () => void;
  /** How many holds are open (0: the background may idle out). */
  readonly holds: number;
}

export interface BackgroundKeepAliveOptions {
  /** An extension API call that resets the browser's idle timer; `runtime.getPlatformInfo` by default. */
  ping?: () => Promise<unknown>;
  intervalMs?: number;
}

/**
 * Creates the background's keep-alive: while at least one hold is open, it calls `ping` at once and
 * then every `intervalMs`; with the last release the heartbeat stops, so the browser unloads the
 * background on its usual idle time.
 *
 * @example
 * const keepAlive = createBackgroundKeepAlive();
 * const outcome = await whileHeld(keepAlive, () => runTheTurn());
 */
export function createBackgroundKeepAlive(options: BackgroundKeepAliveOptions = {}): BackgroundKeepAlive {
  const ping = options.ping ?? (() => browser.runtime.getPlatformInfo());
  const intervalMs = options.intervalMs ?? BACKGROUND_HEARTBEAT_MS;
  let holds = 0;
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  // A failed ping changes nothing: the next one tries again, and the work itself goes on.
  const beat = () => void Promise.resolve().then(ping).catch(() => undefined);

  return {
    hold() {
      holds += 1;
      if (holds === 1) {
        beat();
        heartbeat = setInterval(beat, intervalMs);
      }
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holds -= 1;
        if (holds === 0) {
          clearInterval(heartbeat);
          heartbeat = undefined;
        }
      };
    },
    get holds() {
      return holds;
    },
  };
}

/** Holds the background awake while `work` runs, until its promise settles; passes its result or error on. */
export async function whileHeld<Result>(keepAlive: BackgroundKeepAlive, work: () => Promise<Result>): Promise<Result> {
  const release = keepAlive.hold();
  try {
    return await work();
  } finally {
    release();
  }
}
