import { useState } from 'preact/hooks';
import { keyForEditedConnection } from '../../settings/key-binding';
import { connectionSchema, toolProtocolSchema, type Connection, type Settings } from '../../settings/schema';
import { issuesFromZod } from '../../settings/settings-errors';
import { countText } from '../../count-text';
import { t } from '../ui-text';
import { describedBy, Field, issuesByPath } from './field';
import { listEndpointModels, type ModelListing } from './model-listing';
import type { OptionsState } from './options-state';

interface ConnectionDraft {
  id: string;
  label: string;
  baseURL: string;
  apiKey: string;
  defaultModel: string;
  maxConcurrency: string;
  toolProtocol: string;
}

function draftOf(connection: Connection | undefined): ConnectionDraft {
  return {
    id: connection?.id ?? '',
    label: connection?.label ?? '',
    baseURL: connection?.baseURL ?? 'http://127.0.0.1:8080/v1',
    apiKey: connection?.apiKey ?? '',
    defaultModel: connection?.defaultModel ?? '',
    maxConcurrency: String(connection?.maxConcurrency ?? 2),
    toolProtocol: connection?.toolProtocol ?? 'auto',
  };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** Replaces the connection `previousId` (or adds one) and returns the errors of its own fields, prefix stripped. */
function withConnection(settings: Settings, connection: Connection, previousId: string | undefined): Settings {
  const exists = previousId !== undefined && settings.connections.some((entry) => entry.id === previousId);
  const connections = exists ? settings.connections.map((entry) => (entry.id === previousId ? connection : entry)) : [...settings.connections, connection];
  return { ...settings, connections };
}

export interface ConnectionFormProps {
  state: OptionsState;
  /** The stored connection, or undefined for a new one. */
  connection?: Connection;
  onDone?: () => void;
}

/** One OpenAI-compatible connection: base URL, key, default model, concurrency; Save, Test, Delete. */
export function ConnectionForm({ state, connection, onDone }: ConnectionFormProps) {
  const [draft, setDraft] = useState(() => draftOf(connection));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [listing, setListing] = useState<ModelListing | 'testing' | undefined>(undefined);
  const [testedWithoutKey, setTestedWithoutKey] = useState(false);
  const prefix = `connection-${connection?.id ?? 'new'}`;
  const update = (field: keyof ConnectionDraft) => (event: Event) => setDraft({ ...draft, [field]: (event.currentTarget as HTMLInputElement).value });

  function parseDraft(): Connection | undefined {
    const input = { ...draft, maxConcurrency: Number(draft.maxConcurrency) };
    const parsed = connectionSchema.safeParse(input);
    if (parsed.success) return parsed.data;
    setErrors(issuesByPath(issuesFromZod(parsed.error.issues, { input, schema: connectionSchema })));
    return undefined;
  }

  async function save() {
    const parsed = parseDraft();
    const settings = state.settings.value;
    if (!parsed || !settings) return;
    setErrors({});
    // Asked first, straight from the click: background model calls need access to the endpoint.
    const origin = originOf(parsed.baseURL);
    if (origin && !(await state.dependencies.requestOriginPermission(origin))) {
      setErrors({ baseURL: t('options_connection_permission_refused', origin) });
      return;
    }
    // A key stays with the origin it was saved for: moved elsewhere without a new key, it is dropped.
    const key = keyForEditedConnection(connection, parsed);
    const saved = { ...parsed, apiKey: key.apiKey };
    const doneText = key.dropped ? t('options_connection_key_dropped', origin ?? parsed.baseURL) : t('options_saved');
    if (await state.saveSettings(withConnection(settings, saved, connection?.id), doneText)) {
      if (key.dropped) setDraft({ ...draft, apiKey: '' });
      onDone?.();
    }
  }

  async function test() {
    const origin = originOf(draft.baseURL);
    if (!origin) {
      setErrors({ baseURL: t('options_connection_url_invalid') });
      return;
    }
    setListing('testing');
    if (!(await state.dependencies.requestOriginPermission(origin))) {
      setListing({ ok: false, message: t('options_connection_permission_refused', origin) });
      return;
    }
    // The same rule as Save: the stored key goes only to the origin it was saved for, unless typed again.
    const key = keyForEditedConnection(connection, { baseURL: draft.baseURL, apiKey: draft.apiKey });
    setTestedWithoutKey(key.dropped);
    setListing(await listEndpointModels({ baseURL: draft.baseURL, apiKey: key.apiKey, fetch: state.dependencies.fetch }));
  }

  async function remove() {
    const settings = state.settings.value;
    if (!settings || !connection) return;
    await state.saveSettings({ ...settings, connections: settings.connections.filter((entry) => entry.id !== connection.id) }, t('options_deleted'));
  }

  const input = (field: keyof ConnectionDraft, type = 'text', extra: Record<string, unknown> = {}) => (
    <input type={type as 'text'} value={draft[field]} onInput={update(field)} {...describedBy(`${prefix}-${field}`, errors[field])} {...extra} />
  );

  return (
    <form class="card connection-form" aria-label={connection ? t('options_connection_named', connection.id) : t('options_connection_new')} onSubmit={(event) => { event.preventDefault(); void save(); }}>
      <div class="form-grid">
        <Field id={`${prefix}-id`} label={t('options_connection_id')} error={errors.id}>{input('id', 'text', { readOnly: connection !== undefined })}</Field>
        <Field id={`${prefix}-label`} label={t('options_connection_label')} error={errors.label}>{input('label')}</Field>
        <Field id={`${prefix}-baseURL`} label={t('options_connection_base_url')} error={errors.baseURL}>{input('baseURL', 'url')}</Field>
        <Field id={`${prefix}-apiKey`} label={t('options_connection_api_key')} error={errors.apiKey}>
          {input('apiKey', 'password', { autocomplete: 'off' })}
        </Field>
        <Field id={`${prefix}-defaultModel`} label={t('options_connection_default_model')} error={errors.defaultModel}>{input('defaultModel')}</Field>
        <Field id={`${prefix}-maxConcurrency`} label={t('options_connection_concurrency')} error={errors.maxConcurrency}>{input('maxConcurrency', 'number', { min: 1, max: 32 })}</Field>
        <Field id={`${prefix}-toolProtocol`} label={t('options_connection_tool_protocol')} error={errors.toolProtocol}>
          <select value={draft.toolProtocol} onChange={update('toolProtocol')} {...describedBy(`${prefix}-toolProtocol`, errors.toolProtocol)}>
            {toolProtocolSchema.options.map((protocol) => <option key={protocol} value={protocol}>{t(`options_tool_protocol_${protocol}`)}</option>)}
          </select>
        </Field>
      </div>
      <div class="button-row">
        <button type="submit" class="primary">{t('options_save')}</button>
        <button type="button" onClick={() => void test()}>{t('options_connection_test')}</button>
        {connection && <button type="button" class="danger" onClick={() => void remove()}>{t('options_delete')}</button>}
      </div>
      {listing === 'testing' && <p class="muted">{t('options_connection_testing')}</p>}
      {listing && listing !== 'testing' && testedWithoutKey && <p class="muted">{t('options_connection_tested_without_key', originOf(draft.baseURL) ?? draft.baseURL)}</p>}
      {listing && listing !== 'testing' && (listing.ok ? (
        <div class="test-result" role="status">
          <p>{countText('options_connection_models', listing.models.length)}</p>
          <ul class="model-list">{listing.models.slice(0, 100).map((model) => <li key={model}><code>{model}</code></li>)}</ul>
        </div>
      ) : (
        <p class="error-text" role="alert">{listing.message}</p>
      ))}
    </form>
  );
}
