/**
 * The progress lines Retinue writes to the page's reasoning channel while a run works, and how to
 * tell one again when a page stores it and sends it back (issue 20.6). Every writer's shape is here:
 * a task line `<task name> · <title> — <what happened>` (child-task.ts, task-review.ts) and the spend
 * cap's `Token limit reached (<used> of <cap>) — wrapping up` (spend-cap.ts). A test runs the real
 * writers and checks that each line they make is recognised.
 */

/** How a task line ends: the task's start and end words, then the review states' words. */
export const TASK_LINE_ENDINGS = [
  'started',
  'done',
  'failed',
  'cancelled',
  'result waits for your review',
  'result approved',
  'result edited by you',
  'result discarded',
] as const;

const TASK_SEPARATOR = ' · ';
const ENDING_SEPARATOR = ' — ';
const TOKEN_LIMIT_START = 'Token limit reached (';
const TOKEN_LIMIT_END = ') — wrapping up';
/** A line longer than any progress line the page gets (the background caps them at 500). */
const MAX_LINE_CHARS = 500;

function isTaskName(text: string): boolean {
  if (text === '') return false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const lowerOrDigit = (code >= 97 && code <= 122) || (code >= 48 && code <= 57);
    if (!lowerOrDigit && !(code === 45 && index > 0)) return false;
  }
  return true;
}

function isTaskLine(line: string): boolean {
  const separator = line.indexOf(TASK_SEPARATOR);
  if (separator <= 0 || !isTaskName(line.slice(0, separator))) return false;
  const rest = line.slice(separator + TASK_SEPARATOR.length);
  return TASK_LINE_ENDINGS.some((ending) => rest.length > ENDING_SEPARATOR.length + ending.length && rest.endsWith(`${ENDING_SEPARATOR}${ending}`));
}

/** Whether one line (surrounding spaces aside) is exactly a progress line Retinue writes. */
export function isProgressLine(line: string): boolean {
  const text = line.trim();
  if (text.length === 0 || text.length > MAX_LINE_CHARS) return false;
  if (text.startsWith(TOKEN_LIMIT_START) && text.endsWith(TOKEN_LIMIT_END)) return true;
  return isTaskLine(text);
}

/** `text` without its progress lines, and whether any were there. Linear in the text's length. */
export function withoutProgressLineText(text: string): { text: string; removed: boolean } {
  if (!text.includes(TASK_SEPARATOR) && !text.includes(TOKEN_LIMIT_START)) return { text, removed: false };
  const kept: string[] = [];
  let removed = false;
  for (const line of text.split('\n')) {
    if (isProgressLine(line)) removed = true;
    else kept.push(line);
  }
  return removed ? { text: kept.join('\n'), removed } : { text, removed };
}
