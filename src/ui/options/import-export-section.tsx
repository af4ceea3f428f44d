import { useState } from 'preact/hooks';
import { exportSettings, importProfile, importSettings } from '../../settings/import-export';
import { originOfBaseUrl } from '../../settings/key-binding';
import type { SettingsIssue } from '../../settings/settings-errors';
import { t } from '../ui-text';
import type { OptionsState } from './options-state';

/** Import and export of the whole settings document and of single profiles, as JSON. */
export function ImportExportSection({ state }: { state: OptionsState }) {
  const [text, setText] = useState('');
  const [includeKeys, setIncludeKeys] = useState(false);
  const [errors, setErrors] = useState<SettingsIssue[]>([]);

  async function readFile(event: Event) {
    const file = (event.currentTarget as HTMLInputElement).files?.[0];
    if (file) setText(await file.text());
  }
  async function importDocument() {
    const current = state.settings.value;
    const result = importSettings(text, current);
    if (!result.ok) return setErrors(result.errors);
    setErrors([]);
    // As saving a connection does: background model calls need access to each endpoint's origin.
    const origins = [...new Set(result.settings.connections.flatMap((connection) => originOfBaseUrl(connection.baseURL) ?? []))];
    if (origins.length > 0 && !(await state.dependencies.requestOriginPermission(...origins))) {
      state.status.value = { kind: 'error', text: t('options_import_permission_refused', origins.join(', ')) };
      return;
    }
    const doneText = result.keysDropped ? t('options_import_keys_dropped', result.keysDropped.join(', ')) : t('options_import_done');
    if (await state.saveSettings(result.settings, doneText)) setText('');
  }
  async function importOneProfile() {
    const current = state.settings.value;
    if (!current) return;
    const result = importProfile(text, current);
    if (!result.ok) return setErrors(result.errors);
    setErrors([]);
    if (await state.saveSettings(result.settings, t('options_import_profile_done', result.profile.name))) setText('');
  }
  function exportDocument() {
    const settings = state.settings.value;
    if (settings) state.dependencies.download('retinue-settings.json', exportSettings(settings, { includeApiKeys: includeKeys }));
  }

  return (
    <section id="import-export" class="options-section" aria-labelledby="import-export-title">
      <h2 id="import-export-title">{t('options_import_export')}</h2>
      <div class="card">
        <h3>{t('options_export')}</h3>
        <label class="checkbox">
          <input type="checkbox" checked={includeKeys} onChange={(event) => setIncludeKeys(event.currentTarget.checked)} />
          {t('options_export_include_keys')}
        </label>
        <div class="button-row">
          <button type="button" onClick={exportDocument}>{t('options_export_settings')}</button>
        </div>
        <p class="muted">{t('options_export_profile_hint')}</p>
      </div>
      <div class="card">
        <h3>{t('options_import')}</h3>
        <label for="import-file">{t('options_import_file')}</label>
        <input id="import-file" type="file" accept="application/json,.json" onChange={(event) => void readFile(event)} />
        <label for="import-text">{t('options_import_text')}</label>
        <textarea id="import-text" rows={10} value={text} onInput={(event) => setText(event.currentTarget.value)} aria-describedby={errors.length > 0 ? 'import-errors' : undefined} />
        <div class="button-row">
          <button type="button" class="primary" disabled={!text.trim()} onClick={() => void importDocument()}>{t('options_import_settings')}</button>
          <button type="button" disabled={!text.trim()} onClick={() => void importOneProfile()}>{t('options_import_profile')}</button>
        </div>
        <p class="muted">{t('options_import_replaces')}</p>
        {errors.length > 0 && (
          <div id="import-errors" class="import-errors" role="alert">
            <p>{t('options_import_refused')}</p>
            <ul>
              {errors.map((issue, index) => (
                <li key={index}>{issue.path && <code>{issue.path}</code>} {issue.message}</li>
              ))}
            </ul>
          </div>
        )}
      </div>
    </section>
  );
}
