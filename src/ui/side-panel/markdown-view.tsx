import { useLayoutEffect, useMemo, useRef } from 'preact/hooks';
import { renderMarkdown } from '../markdown';
import { formatCount } from './format';
import { t } from '../ui-text';

/** Model-written markdown, sanitised (src/ui/markdown.ts), with a notice when it was cut. */
export function MarkdownView({ source }: { source: string }) {
  const rendered = useMemo(() => renderMarkdown(source), [source]);
  const body = useRef<HTMLDivElement>(null);
  // Nodes, not an HTML string: the sanitised fragment is inserted as it is (a clone, so a re-render can insert it again).
  useLayoutEffect(() => {
    body.current?.replaceChildren(rendered.fragment.cloneNode(true));
  }, [rendered]);
  return (
    <div class="markdown-view">
      {rendered.truncated && (
        <p class="notice" role="note">
          {t('sidepanel_truncated', formatCount(rendered.shownChars), formatCount(rendered.totalChars))}
        </p>
      )}
      {/* Filled with renderMarkdown's sanitised nodes (DOMPurify plus an allow-list pass). */}
      <div class="markdown-body" ref={body} />
    </div>
  );
}
