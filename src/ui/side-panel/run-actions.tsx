import type { RunStore } from '../../store/run-store';
import { t } from '../ui-text';
import { exportRunJson, exportRunMarkdown } from './run-export';

/** Export buttons for one run (JSON of every record; its results as Markdown). */
export function RunExportButtons({ store, runId, onError }: { store: RunStore; runId: string; onError(error: unknown): void }) {
  return (
    <>
      <button type="button" class="small-button" onClick={() => void exportRunJson(store, runId).catch(onError)}>
        {t('sidepanel_export_json')}
      </button>
      <button type="button" class="small-button" onClick={() => void exportRunMarkdown(store, runId).catch(onError)}>
        {t('sidepanel_export_markdown')}
      </button>
    </>
  );
}
