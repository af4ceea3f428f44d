// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { renderMarkdown } from '../../../src/ui/markdown';

function renderToElement(source: string, maxChars?: number): HTMLElement {
  const element = document.createElement('div');
  element.replaceChildren(renderMarkdown(source, { maxChars }).fragment);
  return element;
}

describe('renderMarkdown', () => {
  it('renders ordinary markdown: headings, lists, code and tables', () => {
    const element = renderToElement('# Findings\n\n- one\n- two\n\n`code`\n\n| a | b |\n| - | - |\n| 1 | 2 |');

    expect(element.querySelector('h1')?.textContent).toBe('Findings');
    expect(element.querySelectorAll('li')).toHaveLength(2);
    expect(element.querySelector('code')?.textContent).toBe('code');
    expect(element.querySelector('td')?.textContent).toBe('1');
  });

  it('strips script tags written as raw HTML', () => {
    const element = renderToElement('Before\n\n<script>window.hacked = true</script>\n\nAfter <script>alert(1)</script>');

    expect(element.querySelector('script')).toBeNull();
    expect(element.innerHTML).not.toContain('hacked');
    expect(element.textContent).toContain('After');
  });

  it('drops class attributes, so model text cannot dress up as Retinue’s own notices', () => {
    const element = renderToElement('<div class="page-notice status-badge">Retinue: your key expired, paste it here</div>\n\n```js\nx\n```');

    expect(element.querySelectorAll('[class]')).toHaveLength(0);
    expect(element.textContent).toContain('your key expired');
  });

  it('strips on* event handler attributes', () => {
    const element = renderToElement('<div onclick="steal()" onmouseover="steal()">hover</div> <a href="https://example.com" onfocus="x()">x</a>');

    const withHandlers = Array.from(element.querySelectorAll('*')).filter((node) =>
      Array.from(node.attributes).some((attribute) => attribute.name.toLowerCase().startsWith('on')),
    );
    expect(withHandlers).toEqual([]);
    expect(element.textContent).toContain('hover');
  });

  it('drops javascript: and data: link targets but keeps the link text', () => {
    const element = renderToElement('[click](javascript:alert(1)) and [data](data:text/html,<b>x</b>) and <a href="JaVaScRiPt:alert(2)">raw</a>');

    const hrefs = Array.from(element.querySelectorAll('a')).map((anchor) => anchor.getAttribute('href'));
    expect(hrefs.filter((href) => href !== null && /^(javascript|data):/i.test(href.trim()))).toEqual([]);
    expect(element.textContent).toContain('click');
    expect(element.textContent).toContain('raw');
  });

  it('opens web links in a new tab without giving the new page a handle on this one', () => {
    const element = renderToElement('See [the docs](https://example.com/docs).');

    const anchor = element.querySelector('a');
    expect(anchor?.getAttribute('href')).toBe('https://example.com/docs');
    expect(anchor?.getAttribute('target')).toBe('_blank');
    expect(anchor?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('does not load remote images: markdown and raw HTML images become text placeholders', () => {
    const element = renderToElement('![a tracking pixel](https://tracker.example/pixel.png)\n\n<img src="https://evil.example/x.png" alt="raw" onerror="x()">\n\n<img src="data:image/png;base64,AAAA">');

    expect(element.querySelector('img')).toBeNull();
    expect(element.textContent).toContain('[image: a tracking pixel]');
    expect(element.textContent).toContain('[image: raw]');
    const placeholderLink = Array.from(element.querySelectorAll('a')).find((anchor) => anchor.textContent === '[image: a tracking pixel]');
    expect(placeholderLink?.getAttribute('href')).toBe('https://tracker.example/pixel.png');
    expect(element.innerHTML).not.toContain('data:image');
  });

  it('removes iframes, forms, styles and svg', () => {
    const element = renderToElement('<iframe src="https://x.example"></iframe><form action="https://x.example"><input type="text"></form><style>body{display:none}</style><svg onload="x()"></svg>ok');

    expect(element.querySelector('iframe, form, style, svg, input[type="text"]')).toBeNull();
    expect(element.textContent).toContain('ok');
  });

  it('renders only the beginning of a huge document and says so', () => {
    const line = 'A line of findings that repeats.\n';
    const source = line.repeat(10_000);

    const rendered = renderMarkdown(source, { maxChars: 5_000 });

    expect(rendered.truncated).toBe(true);
    expect(rendered.totalChars).toBe(source.length);
    expect(rendered.shownChars).toBeLessThanOrEqual(5_000);
    expect(rendered.fragment.textContent?.length).toBeLessThan(10_000);
  });

  it('renders a short document whole', () => {
    const rendered = renderMarkdown('short');

    expect(rendered.truncated).toBe(false);
    expect(rendered.shownChars).toBe(5);
  });
});
