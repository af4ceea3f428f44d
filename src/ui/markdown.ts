import createDOMPurify, { type DOMPurify } from 'dompurify';
import { Marked } from 'marked';

/** Beyond this many characters only the beginning of a document is rendered. */
export const DEFAULT_MARKDOWN_CHAR_LIMIT = 100_000;

export interface RenderedMarkdown {
  /**
   * The sanitised document as nodes of the given window's document, to insert as they are
   * (`element.replaceChildren(fragment)`): no HTML string is ever assigned to `innerHTML`.
   */
  fragment: DocumentFragment;
  /** True when the source was longer than the limit and only its beginning was rendered. */
  truncated: boolean;
  shownChars: number;
  totalChars: number;
}

export interface RenderMarkdownOptions {
  /** Render at most this many characters of the source (default {@link DEFAULT_MARKDOWN_CHAR_LIMIT}). */
  maxChars?: number;
  /** The window whose document parses the HTML; defaults to the global one. */
  window?: Window;
}

/** Tags a markdown document needs; everything else (script, style, img, iframe, form, svg...) goes. */
const ALLOWED_TAGS = [
  'a', 'abbr', 'b', 'blockquote', 'br', 'code', 'del', 'details', 'div', 'em', 'h1', 'h2', 'h3', 'h4', 'h5',
  'h6', 'hr', 'i', 'input', 'kbd', 'li', 'ol', 'p', 'pre', 's', 'span', 'strong', 'sub', 'summary', 'sup',
  'table', 'tbody', 'td', 'tfoot', 'th', 'thead', 'tr', 'ul',
];
/** No `class`: model text must not borrow Retinue's own styles (a fake notice or status badge). */
const ALLOWED_ATTR = ['href', 'title', 'start', 'align', 'colspan', 'rowspan', 'open', 'type', 'checked', 'disabled'];
/** Only web and mail links survive: no `javascript:`, `data:`, `blob:` or extension URLs. */
const ALLOWED_URI_REGEXP = /^(?:https?:|mailto:|#)/i;

/** Elements removed together with everything inside them. */
const DROPPED_WITH_CONTENT = new Set(['SCRIPT', 'STYLE', 'IFRAME', 'OBJECT', 'EMBED', 'TEMPLATE', 'NOSCRIPT', 'SVG', 'MATH', 'FORM', 'SELECT', 'TEXTAREA', 'BUTTON']);
const ALLOWED_TAG_NAMES = new Set(ALLOWED_TAGS.map((tag) => tag.toUpperCase()));
const ALLOWED_ATTRIBUTE_NAMES = new Set(ALLOWED_ATTR);

const marked = new Marked({ gfm: true, breaks: false, async: false });
const purifiers = new WeakMap<Window, DOMPurify | null>();

/**
 * DOMPurify for this window, or null where it fails a probe: in DOM implementations it does not
 * support (happy-dom, used in unit tests) it silently keeps handlers or drops markup. Browsers pass.
 */
function purifierFor(view: Window): DOMPurify | null {
  if (purifiers.has(view)) return purifiers.get(view) ?? null;
  const purifier = createDOMPurify(view as unknown as Parameters<typeof createDOMPurify>[0]);
  const probe = purifier.isSupported ? purifier.sanitize('<p onclick="x()">a</p><script>b</script>') : '';
  const usable = probe === '<p>a</p>' ? purifier : null;
  purifiers.set(view, usable);
  return usable;
}

function withoutControlCharacters(text: string): string {
  return Array.from(text)
    .filter((character) => character.charCodeAt(0) > 0x20)
    .join('');
}

/**
 * A second, independent allow-list pass over DOMPurify's output. DOMPurify does the real work in
 * browsers; this pass keeps the guarantees where a DOM implementation trips it up (happy-dom does)
 * and sets how links open.
 */
function enforceAllowList(root: DocumentFragment): void {
  for (const element of Array.from(root.querySelectorAll('*'))) {
    const tag = element.tagName.toUpperCase();
    // Skip what an earlier step already removed together with its container.
    if (!root.contains(element)) continue;
    if (DROPPED_WITH_CONTENT.has(tag)) {
      element.remove();
      continue;
    }
    if (!ALLOWED_TAG_NAMES.has(tag)) {
      element.replaceWith(...Array.from(element.childNodes));
      continue;
    }
    for (const attribute of Array.from(element.attributes)) {
      if (!ALLOWED_ATTRIBUTE_NAMES.has(attribute.name.toLowerCase())) element.removeAttribute(attribute.name);
    }
    const href = element.getAttribute('href');
    // Browsers ignore control characters and spaces inside a scheme, so compare without them.
    if (href !== null && !ALLOWED_URI_REGEXP.test(withoutControlCharacters(href))) element.removeAttribute('href');
    if (tag === 'A' && !element.getAttribute('href')?.startsWith('#')) {
      element.setAttribute('target', '_blank');
      element.setAttribute('rel', 'noopener noreferrer');
    }
    // Task-list checkboxes are the only inputs markdown makes; they must not be editable.
    if (tag === 'INPUT') {
      if (element.getAttribute('type') !== 'checkbox') element.remove();
      else element.setAttribute('disabled', '');
    }
  }
}

/** Cuts at the last line break before the limit so a table or list is not split mid-line. */
function cutSource(source: string, maxChars: number): string {
  if (source.length <= maxChars) return source;
  const lastBreak = source.lastIndexOf('\n', maxChars);
  return source.slice(0, lastBreak > maxChars / 2 ? lastBreak : maxChars);
}

/**
 * Replaces every image with a text placeholder so nothing remote loads: the image's alt text, and a
 * link to its address when that is a web address the reader may choose to open.
 */
function replaceImages(root: ParentNode & Node): void {
  const document = root.ownerDocument ?? (root as Document);
  for (const image of Array.from(root.querySelectorAll('img'))) {
    const source = image.getAttribute('src') ?? '';
    const label = `[image: ${image.getAttribute('alt') || 'no description'}]`;
    let placeholder: HTMLElement;
    if (/^https?:/i.test(source)) {
      placeholder = document.createElement('a');
      placeholder.setAttribute('href', source);
    } else {
      placeholder = document.createElement('span');
    }
    placeholder.className = 'markdown-image-placeholder';
    placeholder.textContent = label;
    image.replaceWith(placeholder);
  }
}

/**
 * Renders model-written markdown to sanitised HTML: no scripts, no `on*` handlers, no `javascript:`
 * or `data:` links, no remote images (a text placeholder instead), links open in a new tab with
 * `rel="noopener noreferrer"`, and huge documents are cut to their beginning.
 *
 * @example
 * const { fragment, truncated } = renderMarkdown(capsuleMarkdown);
 * element.replaceChildren(fragment);
 */
export function renderMarkdown(source: string, options: RenderMarkdownOptions = {}): RenderedMarkdown {
  const view = options.window ?? window;
  const maxChars = options.maxChars ?? DEFAULT_MARKDOWN_CHAR_LIMIT;
  const shown = cutSource(source, maxChars);
  const rawHtml = marked.parse(shown) as string;
  // A parsed document has no browsing context: nothing in it loads or runs while the images are swapped out.
  const parsed = new (view as Window & typeof globalThis).DOMParser().parseFromString(rawHtml, 'text/html');
  replaceImages(parsed.body);
  // DOMPurify takes a fragment (a detached <body> would be a root it must remove, and refuses to).
  let inert = parsed.createDocumentFragment();
  inert.append(...Array.from(parsed.body.childNodes));
  const purifier = purifierFor(view);
  if (purifier) {
    inert = purifier.sanitize(inert, {
      ALLOWED_TAGS, ALLOWED_ATTR, ALLOWED_URI_REGEXP, ALLOW_DATA_ATTR: false, ALLOW_ARIA_ATTR: false, RETURN_DOM_FRAGMENT: true,
    });
  }
  // Checked while still in an inert document, then imported: the caller gets nodes of its window's document.
  enforceAllowList(inert);
  const fragment = view.document.importNode(inert, true);
  return { fragment, truncated: shown.length < source.length, shownChars: shown.length, totalChars: source.length };
}
