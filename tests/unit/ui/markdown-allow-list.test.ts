// @vitest-environment happy-dom
import { expect, test } from 'vitest';
import { renderMarkdown } from '../../../src/ui/markdown';

// happy-dom fails DOMPurify's probe, so here the second pass (the tag allow-list) is all that stands
// between model text and the side panel: a modal dialog over the panel, a <base> that re-points every
// relative link, a video that loads and plays.
test('tags outside the allow-list are removed even where DOMPurify is not there to do it; their text stays', () => {
  const element = document.createElement('div');
  const source = [
    '<dialog open>Retinue: paste your API key here</dialog>',
    '',
    '<base href="https://evil.example/">',
    '',
    '<video src="https://evil.example/clip.mp4" autoplay>Clip</video>',
    '',
    '<marquee>Moving</marquee> and <b>bold</b>',
  ].join('\n');

  element.replaceChildren(renderMarkdown(source).fragment);

  expect(element.querySelector('dialog, base, video, marquee')).toBeNull();
  expect(element.innerHTML).not.toContain('evil.example');
  expect(element.textContent).toContain('Retinue: paste your API key here');
  expect(element.textContent).toContain('Moving');
  expect(element.querySelector('b')?.textContent).toBe('bold');
});
