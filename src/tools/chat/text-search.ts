/**
 * Word search over chat text in linear time: the query's words are looked up with `indexOf` in the
 * lower-cased text (no regex over page text), and a message matches when it holds every word.
 */

/** At most this many words of a query count; the rest are ignored (and the answer says so). */
export const MAX_SEARCH_TERMS = 8;

export interface SearchTerms {
  terms: string[];
  /** Words past {@link MAX_SEARCH_TERMS}, left out. */
  ignored: number;
}

function isSpace(character: string): boolean {
  return character === ' ' || character === '\n' || character === '\t' || character === '\r' || character === '\u00a0' || character === '\u3000';
}

/** The distinct lower-cased words of a query, split on whitespace in one pass. */
export function searchTerms(query: string): SearchTerms {
  const words: string[] = [];
  let word = '';
  for (const character of query.toLowerCase()) {
    if (isSpace(character)) {
      if (word !== '') words.push(word);
      word = '';
    } else word += character;
  }
  if (word !== '') words.push(word);
  const distinct = [...new Set(words)];
  return { terms: distinct.slice(0, MAX_SEARCH_TERMS), ignored: Math.max(0, distinct.length - MAX_SEARCH_TERMS) };
}

/**
 * Where the first of the terms occurs in `lowerText`, or -1 when any term is missing. Each term is
 * one `indexOf`, so a message costs (terms × its length) at most.
 */
export function firstHit(lowerText: string, terms: readonly string[]): number {
  let first = -1;
  for (const term of terms) {
    const at = lowerText.indexOf(term);
    if (at === -1) return -1;
    if (first === -1 || at < first) first = at;
  }
  return first;
}

/** A piece of `text` around `at`, about `radius` characters either side, marked where it was cut. */
export function excerptAround(text: string, at: number, radius: number): { text: string; cutBefore: boolean; cutAfter: boolean } {
  const centre = Math.min(Math.max(0, at), text.length);
  const start = Math.max(0, centre - radius);
  const end = Math.min(text.length, centre + radius);
  return { text: text.slice(start, end), cutBefore: start > 0, cutAfter: end < text.length };
}
