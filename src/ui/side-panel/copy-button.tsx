import { useState } from 'preact/hooks';
import { t } from '../ui-text';

/** Copies `text` to the clipboard and says so for a moment. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  async function copy() {
    await navigator.clipboard.writeText(text);
    setCopied(true);
    setTimeout(() => setCopied(false), 1_500);
  }
  return (
    <button type="button" class="small-button" aria-label={label} onClick={() => void copy().catch(() => setCopied(false))}>
      {copied ? t('sidepanel_copied') : t('sidepanel_copy')}
    </button>
  );
}
