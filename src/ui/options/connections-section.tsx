import { useState } from 'preact/hooks';
import { t } from '../ui-text';
import { ConnectionForm } from './connection-form';
import type { OptionsState } from './options-state';

/** Every OpenAI-compatible connection, and a form for a new one. */
export function ConnectionsSection({ state }: { state: OptionsState }) {
  const [adding, setAdding] = useState(false);
  const connections = state.settings.value?.connections ?? [];
  return (
    <section id="connections" class="options-section" aria-labelledby="connections-title">
      <h2 id="connections-title">{t('options_connections')}</h2>
      <p class="muted">{t('options_connections_intro')}</p>
      <p class="notice">{t('options_connection_key_note')}</p>
      {connections.map((connection) => <ConnectionForm key={connection.id} state={state} connection={connection} />)}
      {adding ? (
        <ConnectionForm state={state} onDone={() => setAdding(false)} />
      ) : (
        <button type="button" onClick={() => setAdding(true)}>{t('options_connection_add')}</button>
      )}
    </section>
  );
}
