/**
 * Trims a repeated character off the ends of a string by walking from the edge: linear in the
 * string, where a regex such as `/\/+$/` restarts at every run of the character (quadratic on a
 * long run that is not at the end).
 */

/** `text` without the run of `character` at its end. */
export function trimEndOf(text: string, character: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === character) end -= 1;
  return text.slice(0, end);
}

/** `text` without the runs of `character` at its start and at its end. */
export function trimEdgesOf(text: string, character: string): string {
  let start = 0;
  while (start < text.length && text[start] === character) start += 1;
  return trimEndOf(text.slice(start), character);
}
