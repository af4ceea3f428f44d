import { useMemo } from 'preact/hooks';
import { renderMarkdown } from '../markdown';
import { formatCount } from './format';
import { t } from '../ui-text';

/** Model-written markdown, sanitised (src/ui/markdown.ts), with a notice when it was cut. */
export function MarkdownView({ source }: { source: string }) {
  const rendered = useMemo(() => renderMarkdown(source), [source]);
  return (
    <div class="markdown-view">
      {rendered.truncated && (
        <p class="notice" role="note">
          {t('sidepanel_truncated', formatCount(rendered.shownChars), formatCount(rendered.totalChars))}
        </p>
      )}
      {/* Sanitised by renderMarkdown: DOMPurify plus an allow-list pass. */}
      <div class="markdown-body" dangerouslySetInnerHTML={{ __html: rendered.html }} />
    </div>
  );
}
