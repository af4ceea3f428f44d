/**
 * The open chat as a page's address names it, for pages that give each chat a path or hash route of
 * its own: llama.cpp's web UI (`/#/chat/<id>`), Open WebUI and LibreChat (`/c/<uuid>`). Only a
 * route word followed by something that really looks like an id counts (`/chat/new`, `/c/settings`
 * or a bare `#/` do not), so a page without chat routes is left to the guessed identity.
 * Plain code with no imports: the page hook (MAIN world) runs it on `location.href` with the request.
 * Checked against llama.cpp's tools/server/webui (b7200) and Open WebUI 0.6 routes.
 */

/** Route words that come before a chat's id. */
const CHAT_ROUTE_WORDS = new Set(['c', 'chat', 'chats', 'conversation', 'conversations', 'thread', 'threads', 'session', 'sessions']);
const MIN_ID_CHARS = 6;
const MAX_ID_CHARS = 128;
/** The longest address read; anything longer is not a chat route. */
const MAX_URL_CHARS = 4_000;

/** An id: 6–128 letters, digits, `-` or `_`, with at least one digit (a word like `new` is not one). */
function looksLikeChatId(segment: string): boolean {
  if (segment.length < MIN_ID_CHARS || segment.length > MAX_ID_CHARS) return false;
  let digits = 0;
  for (let index = 0; index < segment.length; index += 1) {
    const code = segment.charCodeAt(index);
    const digit = code >= 48 && code <= 57;
    const letter = (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
    if (!digit && !letter && code !== 45 && code !== 95) return false;
    if (digit) digits += 1;
  }
  return digits > 0;
}

function chatRouteIn(path: string): string | undefined {
  const segments = path.split('/');
  for (let index = 0; index + 1 < segments.length; index += 1) {
    const word = segments[index] ?? '';
    const id = segments[index + 1] ?? '';
    if (CHAT_ROUTE_WORDS.has(word.toLowerCase()) && looksLikeChatId(id)) return `${word}/${id}`;
  }
  return undefined;
}

/**
 * The chat route of a page address (`#/chat/<id>` or `/c/<id>`), or undefined when the address
 * names no chat.
 *
 * @example
 * chatRouteOfUrl('http://127.0.0.1:8080/#/chat/conv-1764480000123'); // '#/chat/conv-1764480000123'
 * chatRouteOfUrl('https://chat.example/c/new'); // undefined
 */
export function chatRouteOfUrl(href: string): string | undefined {
  if (href.length > MAX_URL_CHARS) return undefined;
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return undefined;
  }
  const hashPath = url.hash.startsWith('#') ? url.hash.slice(1).split('?')[0] ?? '' : '';
  const inHash = chatRouteIn(hashPath);
  if (inHash) return `#/${inHash}`;
  const inPath = chatRouteIn(url.pathname);
  return inPath ? `/${inPath}` : undefined;
}
