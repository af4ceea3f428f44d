import { useState } from 'preact/hooks';
import type { WorkspaceFile } from '../../records/workspace-file';
import { t } from '../ui-text';
import { CopyButton } from './copy-button';

/** One workspace file a task wrote: its path, and its text to read and copy. */
export function ArtifactItem({ file, displayPath }: { file: WorkspaceFile; displayPath: string }) {
  const [open, setOpen] = useState(false);
  return (
    <li class="artifact-item">
      <div class="artifact-head">
        <code class="artifact-path">{displayPath}</code>
        <button type="button" class="small-button" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? t('sidepanel_hide_file') : t('sidepanel_read_file')}
        </button>
        <CopyButton text={file.content} label={t('sidepanel_copy_file_label', displayPath)} />
      </div>
      {open && <pre class="artifact-content">{file.content}</pre>}
    </li>
  );
}
