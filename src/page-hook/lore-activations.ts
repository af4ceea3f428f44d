import { tavernContext } from './sillytavern-page';

/** Where the page hook keeps the entries the page's last generation activated (read by lore-page-functions.ts). */
export const LORE_ACTIVATED_KEY = 'retinue.lore-activated';

/**
 * Follows SillyTavern's generations (1.18): `generation_started` clears the list, `world_info_activated`
 * sets it to the entries that generation activated. SillyTavern's context comes after `document_start`,
 * so this looks for it every 250 ms for two minutes. Kept tiny: the books are read on demand by a
 * script the background runs in the page, never by the page hook.
 */
export function watchLoreActivations(target: Window): void {
  const page = target as unknown as Record<symbol, unknown>;
  const key = Symbol.for(LORE_ACTIVATED_KEY);
  const subscribe = (tries: number): void => {
    const events = tavernContext(target)?.eventSource;
    if (!events?.on) {
      if (tries) setTimeout(subscribe, 250, tries - 1);
      return;
    }
    events.on('generation_started', () => (page[key] = []));
    events.on('world_info_activated', (entries) => (page[key] = entries));
  };
  subscribe(480);
}
