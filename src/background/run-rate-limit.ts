/** Chat turns one origin may start per minute; the next ones pass through to the page's own server. */
export const MAX_RUNS_PER_ORIGIN_PER_MINUTE = 20;
const MINUTE_MS = 60_000;

/** Counts run starts per origin over a sliding minute. */
export interface RunRateLimit {
  /** Starts allowed per origin per minute. */
  readonly perMinute: number;
  /** Records a start and returns true, or returns false (recording nothing) when the origin is at its limit. */
  tryStart(origin: string): boolean;
}

/**
 * A sliding-window limit on run starts per origin, so a page cannot start runs without end (each one
 * stores a snapshot and may call the user's keyed connections).
 *
 * @example
 * const limit = createRunRateLimit();
 * if (!limit.tryStart(origin)) passThrough();
 */
export function createRunRateLimit(options: { perMinute?: number; now?: () => number } = {}): RunRateLimit {
  const perMinute = options.perMinute ?? MAX_RUNS_PER_ORIGIN_PER_MINUTE;
  const now = options.now ?? Date.now;
  const starts = new Map<string, number[]>();
  return {
    perMinute,
    tryStart(origin) {
      const time = now();
      const recent = (starts.get(origin) ?? []).filter((started) => time - started < MINUTE_MS);
      if (recent.length >= perMinute) {
        starts.set(origin, recent);
        return false;
      }
      recent.push(time);
      starts.set(origin, recent);
      return true;
    },
  };
}
