import type { ReplyStreamEvent } from '../../src/runtime/reply-stream';

/**
 * The reply text a page ends with after these reply-stream events, built as a page's writer builds
 * it: reply deltas appended, and after a discard the next text starts after a blank line.
 *
 * @example
 * pageReplyText([{ kind: 'reply-delta', text: 'A.' }, { kind: 'reply-discarded' }, { kind: 'reply-delta', text: 'B.' }]); // 'A.\n\nB.'
 */
export function pageReplyText(events: Iterable<ReplyStreamEvent>): string {
  let text = '';
  let breakDue = false;
  let shownSinceDiscard = false;
  for (const event of events) {
    if (event.kind === 'reply-discarded') {
      breakDue ||= shownSinceDiscard;
      shownSinceDiscard = false;
    } else if (event.kind === 'reply-delta' && event.text !== '') {
      text += breakDue ? `\n\n${event.text}` : event.text;
      breakDue = false;
      shownSinceDiscard = true;
    }
  }
  return text;
}
