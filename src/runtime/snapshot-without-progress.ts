import type { PromptSnapshot, SnapshotMessage } from '../hosts/prompt-snapshot';
import { withoutProgressLineText } from './progress-lines';

const THINK_OPEN = '<think>';
const THINK_CLOSE = '</think>';
/** Fields in which pages send an assistant message's reasoning back. */
const REASONING_FIELDS = ['reasoning_content', 'reasoning'] as const;

function isBlank(text: string): boolean {
  return text.trim() === '';
}

/** Skips the blank characters after a dropped block, up to and including one line end. */
function afterBlank(text: string, from: number): number {
  let index = from;
  while (index < text.length && (text[index] === ' ' || text[index] === '\t' || text[index] === '\r')) index += 1;
  return text[index] === '\n' ? index + 1 : from;
}

/**
 * An assistant text without Retinue's progress lines: lines outside `<think>` blocks and inside
 * them; a `<think>` block that held only progress lines goes as a whole. Any other text, a
 * `<think>` block the model or the user wrote included, stays as it was. Linear: each character is
 * looked at a fixed number of times.
 */
export function withoutProgressInText(text: string): string {
  if (!text.includes(' · ') && !text.includes('Token limit reached (')) return text;
  const parts: string[] = [];
  let position = 0;
  while (position < text.length) {
    const open = text.indexOf(THINK_OPEN, position);
    const close = open === -1 ? -1 : text.indexOf(THINK_CLOSE, open + THINK_OPEN.length);
    if (open === -1 || close === -1) {
      parts.push(withoutProgressLineText(text.slice(position)).text);
      break;
    }
    parts.push(withoutProgressLineText(text.slice(position, open)).text);
    const inner = withoutProgressLineText(text.slice(open + THINK_OPEN.length, close));
    position = close + THINK_CLOSE.length;
    if (inner.removed && isBlank(inner.text)) position = afterBlank(text, position);
    else parts.push(`${THINK_OPEN}${inner.text}${THINK_CLOSE}`);
  }
  return parts.join('');
}

function cleanedContent(content: SnapshotMessage['content']): SnapshotMessage['content'] {
  if (typeof content === 'string') return withoutProgressInText(content);
  if (!Array.isArray(content)) return content;
  let changed = false;
  const parts = content.map((part) => {
    if (part.type !== 'text' || typeof part['text'] !== 'string') return part;
    const text = withoutProgressInText(part['text']);
    if (text === part['text']) return part;
    changed = true;
    return { ...part, text };
  });
  return changed ? parts : content;
}

function cleanedAssistant(message: SnapshotMessage): SnapshotMessage {
  const cleaned: SnapshotMessage = { ...message, content: cleanedContent(message.content) };
  if (message.content === undefined) delete cleaned.content;
  for (const field of REASONING_FIELDS) {
    const value = message[field];
    if (typeof value !== 'string') continue;
    const text = withoutProgressInText(value);
    if (isBlank(text) && !isBlank(value)) delete cleaned[field];
    else cleaned[field] = text;
  }
  return cleaned;
}

/**
 * The snapshot without the progress lines Retinue wrote to the page in earlier turns, where a page
 * kept them in its history (a reasoning field, a `<think>` block, plain text) and sent them back.
 * Only assistant messages are read: what the user wrote stays as it was. Every model a run calls
 * (the root, its helpers, `chat.read`) reads the snapshot after this.
 */
export function withoutProgressLines(snapshot: PromptSnapshot): PromptSnapshot {
  let changed = false;
  const messages = snapshot.messages.map((message) => {
    if (message.role !== 'assistant') return message;
    const cleaned = cleanedAssistant(message);
    const same = cleaned.content === message.content && REASONING_FIELDS.every((field) => cleaned[field] === message[field]);
    if (!same) changed = true;
    return same ? message : cleaned;
  });
  return changed ? { ...snapshot, messages } : snapshot;
}
