/**
 * Small markdown helpers for model-facing text: briefings, capsules and tool results are markdown,
 * never a JSON dump.
 */

const MAX_DEPTH = 6;

/** `camelCase` and `snake_case` keys read as words: `expectedOutput` → `Expected output`. */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words.length === 0 ? key : words.charAt(0).toUpperCase() + words.slice(1);
}

function renderScalar(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

function renderLines(value: unknown, indent: string, depth: number): string[] {
  if (depth > MAX_DEPTH) return [`${indent}- ${renderScalar(JSON.stringify(value))}`];
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${indent}- (none)`];
    return value.flatMap((item) => {
      if (isPlainObject(item) || Array.isArray(item)) {
        const nested = renderLines(item, `${indent}  `, depth + 1);
        return [`${indent}-`, ...nested];
      }
      return [`${indent}- ${renderScalar(item)}`];
    });
  }
  if (isPlainObject(value)) {
    return Object.entries(value).flatMap(([key, item]) => {
      if (isPlainObject(item) || Array.isArray(item)) {
        return [`${indent}- **${humanizeKey(key)}**:`, ...renderLines(item, `${indent}  `, depth + 1)];
      }
      return [`${indent}- **${humanizeKey(key)}**: ${renderScalar(item)}`];
    });
  }
  return [`${indent}${renderScalar(value)}`];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Renders a string as itself and an object or list as a markdown bullet list with readable keys.
 * @example renderAsMarkdown({ scene: 'the duel', mustKeep: ['the rain'] })
 * // "- **Scene**: the duel\n- **Must keep**:\n  - the rain"
 */
export function renderAsMarkdown(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  return renderLines(value, '', 0).join('\n');
}

/** A bullet list, or `fallback` when there is nothing to list. */
export function bulletList(items: readonly string[], fallback = ''): string {
  if (items.length === 0) return fallback;
  return items.map((item) => `- ${item.replace(/\n+/g, ' ').trim()}`).join('\n');
}

/**
 * Cuts `text` to at most `maxChars` characters, ending with `note` (which counts towards the cap),
 * preferring to cut at a line break.
 */
export function capText(text: string, maxChars: number, note: string): string {
  if (text.length <= maxChars) return text;
  const room = Math.max(0, maxChars - note.length - 1);
  let cut = text.slice(0, room);
  const lastBreak = cut.lastIndexOf('\n');
  if (lastBreak > room * 0.6) cut = cut.slice(0, lastBreak);
  return `${cut.trimEnd()}\n${note}`.slice(0, maxChars);
}
