import { WARM_UP_INTERVAL_MS } from '../messaging/warm-up-port';

/** What the user does just before a turn: types it (keys), or presses send, swipe or regenerate. */
const USER_INPUT_EVENTS = ['keydown', 'pointerdown'] as const;

export interface WarmUpOptions {
  isSiteOn(): Promise<boolean>;
  /** Opens the warm-up port; the background closes it. */
  connect(): unknown;
  /** Milliseconds on a clock that only goes forward; defaults to `performance.now`. */
  now?: () => number;
  intervalMs?: number;
  /** Only the user's own input, not a page script's events; a seam for tests. */
  isUserInput?: (event: Event) => boolean;
}

/**
 * Starts the background when the user types or presses a pointer in the page, at most once per
 * `intervalMs`, while the site is on. A role-play user reads and writes for longer than the
 * background's 30 s idle time, so a turn would otherwise wait for it to start (about 100 ms); typing
 * gives it seconds. Nothing about the input is read or sent. Gives back a function that stops it.
 *
 * @example
 * warmUpOnUserInput(window, { isSiteOn: () => site.isOn(), connect: () => runtime.connect({ name: WARM_UP_PORT_NAME }) });
 */
export function warmUpOnUserInput(target: EventTarget, options: WarmUpOptions): () => void {
  // A monotonic clock: a wall clock set back would hold the warm-up off for as long.
  const now = options.now ?? (() => performance.now());
  const intervalMs = options.intervalMs ?? WARM_UP_INTERVAL_MS;
  const isUserInput = options.isUserInput ?? ((event: Event) => event.isTrusted);
  let lastWarmUp = -Infinity;
  const onInput = (event: Event) => {
    if (!isUserInput(event) || now() - lastWarmUp < intervalMs) return;
    lastWarmUp = now();
    void options.isSiteOn().then(
      (on) => {
        if (!on) return;
        try {
          options.connect();
        } catch {
          // The extension was reloaded or updated: this page's bridge is orphaned until the page reloads.
        }
      },
      () => undefined,
    );
  };
  for (const type of USER_INPUT_EVENTS) target.addEventListener(type, onInput, { capture: true, passive: true });
  return () => {
    for (const type of USER_INPUT_EVENTS) target.removeEventListener(type, onInput, { capture: true });
  };
}
