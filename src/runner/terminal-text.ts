/**
 * Model text on its way to a terminal. A reply or a progress line may hold escape sequences (a page's
 * model or a prompt injection can write them) that move the cursor, rewrite earlier lines, set the
 * window title or, on some terminals, answer with keystrokes; the runner shows text, never commands.
 */

/** Whether a UTF-16 code unit is a control character a terminal could act on (tab and newline are kept). */
function isTerminalControl(code: number): boolean {
  if (code === 0x09 || code === 0x0a) return false;
  return code < 0x20 || code === 0x7f || (code >= 0x80 && code <= 0x9f);
}

/**
 * `text` without C0 controls (but tab and newline), DEL and C1 controls, in one pass: an escape
 * sequence loses its ESC (or CSI) and is left as harmless printable text.
 *
 * @example
 * toTerminalText('ok\u001b[2Jdone'); // 'ok[2Jdone'
 */
export function toTerminalText(text: string): string {
  let clean = '';
  let keptFrom = 0;
  for (let index = 0; index < text.length; index += 1) {
    if (!isTerminalControl(text.charCodeAt(index))) continue;
    clean += text.slice(keptFrom, index);
    keptFrom = index + 1;
  }
  return keptFrom === 0 ? text : clean + text.slice(keptFrom);
}
