/**
 * The name of the `runtime.Port` the bridge opens, and the background closes at once, to start the
 * background while the user types or clicks in an enabled page: a turn after a pause then finds it
 * running (src/bridge/warm-up-on-input.ts, src/background/warm-up-service.ts). The port carries no
 * message; only this extension's content scripts are listened to.
 */
export const WARM_UP_PORT_NAME = 'retinue-warm-up';
/**
 * At most one warm-up this often. Chrome stops an idle worker after 30 s and Firefox unloads an idle
 * event page after 30 s by default; every 20 s keeps the background up while the user is at the page.
 */
export const WARM_UP_INTERVAL_MS = 20_000;
