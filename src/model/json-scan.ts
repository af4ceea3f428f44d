/**
 * Finds where a JSON object or array written inside free text ends, so a tool call embedded in a
 * model's prose can be cut out exactly. Strings (with escapes) are skipped, so braces inside them
 * do not count.
 */
export function balancedJsonEnd(text: string, start: number): number | undefined {
  const opener = text[start];
  if (opener !== '{' && opener !== '[') return undefined;
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index += 1) {
    const character = text[index];
    if (inString) {
      if (character === '\\') index += 1;
      else if (character === '"') inString = false;
      continue;
    }
    if (character === '"') inString = true;
    else if (character === '{' || character === '[') depth += 1;
    else if (character === '}' || character === ']') {
      depth -= 1;
      if (depth === 0) return index + 1;
    }
  }
  return undefined;
}

/** JSON.parse that answers undefined instead of throwing. */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The JSON value that starts at `start` (after whitespace) and where it ends, if it parses. */
export function readJsonAt(text: string, start: number): { value: unknown; end: number } | undefined {
  let position = start;
  while (position < text.length && /\s/.test(text[position] as string)) position += 1;
  const end = balancedJsonEnd(text, position);
  if (end === undefined) return undefined;
  const value = parseJsonOrUndefined(text.slice(position, end));
  return value === undefined ? undefined : { value, end };
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
