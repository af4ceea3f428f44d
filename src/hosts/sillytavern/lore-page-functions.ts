/**
 * SillyTavern's lorebooks (World Info), read and written in the page: the background runs these with
 * `scripting.executeScript({ world: 'MAIN' })` in the run's tab, so they use the page's own
 * `SillyTavern.getContext()` and session and the page hook carries none of this code. Each function is
 * self-contained (an injected function takes nothing from its module): no imports, no module constants.
 * What they answer is parsed again with zod in the background (src/messaging/lore-messages.ts).
 *
 * SillyTavern 1.18's `getContext()`: `loadWorldInfo(name)`, `saveWorldInfo(name, data, immediately)`,
 * `characters[characterId].data.extensions.world` (the character's book), `chatMetadata.world_info`
 * (the chat's), `powerUserSettings.persona_description_lorebook` (the persona's); the global selection is
 * the `#world_info` list's selected options (`selected_world_info` is not in `getContext()`). Entries of
 * `world_info_activated` carry their book as `world` and their `uid`; the page hook keeps the last ones
 * under `Symbol.for('retinue.lore-activated')` (src/page-hook/lore-activations.ts).
 * Checked against SillyTavern 1.18.0 (public/scripts/st-context.js, public/scripts/world-info.js).
 */

export interface LoreChangeFields {
  book: string;
  uid?: number;
  keys: string[];
  content: string;
  title?: string;
}

interface LoreContext {
  characters?: { data?: { extensions?: { world?: unknown } } }[];
  characterId?: unknown;
  chatMetadata?: Record<string, unknown>;
  powerUserSettings?: { persona_description_lorebook?: unknown };
  loadWorldInfo?: (name: string) => Promise<{ entries?: Record<string, Record<string, unknown>> } | null | undefined>;
  saveWorldInfo?: (name: string, data: unknown, immediately?: boolean) => Promise<unknown>;
}

/**
 * The books the chat uses (20 at most, 500 entries a book, 8,000 characters an entry, 20 keys,
 * 1,000,000 characters in all; a book cut short is marked `cut`) and the last generation's activated
 * entries; null when the page has no lorebooks to read.
 */
export async function readLoreInPage(target: Window = window): Promise<unknown> {
  let context: LoreContext | undefined;
  try {
    context = (target as unknown as { SillyTavern?: { getContext?: () => LoreContext } }).SillyTavern?.getContext?.();
  } catch {
    return null;
  }
  const load = context?.loadWorldInfo;
  if (!context || typeof load !== 'function') return null;
  const used = new Map<string, string[]>();
  const add = (name: unknown, source: string) => {
    if (typeof name === 'string' && name !== '') used.set(name, [...(used.get(name) ?? []), source]);
  };
  const id = context.characterId;
  if (typeof id === 'number' || typeof id === 'string') add(context.characters?.[Number(id)]?.data?.extensions?.world, 'character');
  add(context.chatMetadata?.world_info, 'chat');
  add(context.powerUserSettings?.persona_description_lorebook, 'persona');
  target.document?.querySelectorAll?.('#world_info option:checked').forEach((option) => add(option.textContent?.trim(), 'global'));
  const text = (value: unknown, max: number) => (typeof value === 'string' ? value.slice(0, max) : '');
  const books = [];
  let total = 0;
  for (const [name, sources] of [...used].slice(0, 20)) {
    const data = await load.call(context, name).catch(() => undefined);
    const entries = [];
    let cut = false;
    for (const entry of Object.values(data?.entries ?? {})) {
      const content = text(entry.content, 8_000);
      if (entries.length === 500 || typeof entry.uid !== 'number' || !Number.isInteger(entry.uid) || entry.uid < 0 || (total += content.length) > 1_000_000) {
        cut = true;
        break;
      }
      const keys = Array.isArray(entry.key) ? entry.key.filter((key): key is string => typeof key === 'string').slice(0, 20).map((key) => key.slice(0, 200)) : [];
      entries.push({ uid: entry.uid, keys, title: text(entry.comment, 200), content, disabled: entry.disable === true });
    }
    books.push({ name: name.slice(0, 200), sources, entries, ...(cut ? { cut } : {}) });
  }
  const activated = (target as unknown as Record<symbol, unknown>)[Symbol.for('retinue.lore-activated')];
  const refs = (Array.isArray(activated) ? (activated as { world?: unknown; uid?: unknown }[]) : [])
    .filter((entry) => typeof entry?.world === 'string' && entry.world !== '' && typeof entry.uid === 'number' && Number.isInteger(entry.uid) && entry.uid >= 0)
    .slice(0, 200)
    .map((entry) => ({ book: (entry.world as string).slice(0, 200), uid: entry.uid as number }));
  return { books, activated: refs };
}

/** Writes one entry (an edit of `uid`, or a new one under the next number) through the page's `saveWorldInfo`. */
export async function saveLoreEntryInPage(change: LoreChangeFields, target: Window = window): Promise<unknown> {
  let context: LoreContext | undefined;
  try {
    context = (target as unknown as { SillyTavern?: { getContext?: () => LoreContext } }).SillyTavern?.getContext?.();
  } catch {
    context = undefined;
  }
  if (!context || typeof context.loadWorldInfo !== 'function' || typeof context.saveWorldInfo !== 'function') return { ok: false, refusal: 'lorebooks-unavailable' };
  const data = await context.loadWorldInfo(change.book).catch(() => undefined);
  if (!data?.entries) return { ok: false, refusal: 'book-missing' };
  const entries = data.entries;
  let uid = change.uid;
  const created = uid === undefined;
  if (uid === undefined) {
    uid = Math.max(-1, ...Object.values(entries).map((entry) => (typeof entry.uid === 'number' ? entry.uid : -1))) + 1;
    // The fields of a new entry in SillyTavern's World Info file format; the editor fills in the rest.
    entries[uid] = { uid, keysecondary: [], comment: change.title ?? change.keys[0] ?? '', constant: false, selective: true, disable: false, order: 100, position: 0, depth: 4, probability: 100, useProbability: true, addMemo: true, displayIndex: uid };
  }
  const entry = entries[uid];
  if (!entry) return { ok: false, refusal: 'entry-missing' };
  entry.key = change.keys;
  entry.content = change.content;
  try {
    await context.saveWorldInfo(change.book, data, true);
  } catch {
    return { ok: false, refusal: 'save-failed' };
  }
  return { ok: true, uid, created };
}
