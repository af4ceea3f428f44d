// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { PRIVATE_DATABASE_NAME } from '../../../../src/settings/private-database';
import { loadSettings, loadSettingsWithErrors, onSettingsChanged, saveSettings } from '../../../../src/settings/settings-store';
import { OptionsApp } from '../../../../src/ui/options/options-app';
import { createOptionsState, type OptionsState } from '../../../../src/ui/options/options-state';
import { installEnglishMessages } from '../../../support/english-messages';

/** What each Test click sent: the URL and the Authorization header, if any. */
let sent: Array<{ url: string; authorization: string | undefined }>;
let state: OptionsState;

beforeEach(async () => {
  fakeBrowser.reset();
  await deleteDB(PRIVATE_DATABASE_NAME);
  installEnglishMessages();
  sent = [];
  await saveSettings({ version: 1, connections: [{ id: 'cloud', label: 'Cloud', baseURL: 'https://api.example.com/v1', apiKey: 'sk-cloud-secret', defaultModel: 'm' }] });
  state = createOptionsState({
    load: loadSettingsWithErrors,
    save: saveSettings,
    onChanged: (listener) => onSettingsChanged((settings) => listener(settings)),
    requestOriginPermission: async () => true,
    switchSite: async () => ({ ok: true }),
    fetch: async (input, init) => {
      const headers = new Headers(init?.headers);
      sent.push({ url: String(input), authorization: headers.get('authorization') ?? undefined });
      return new Response(JSON.stringify({ data: [{ id: 'model-a' }] }), { headers: { 'content-type': 'application/json' } });
    },
    download: () => undefined,
  });
  render(<OptionsApp state={state} />);
  const stored = await loadSettings();
  await waitFor(() => expect(state.settings.value).toEqual(stored));
});
afterEach(() => {
  cleanup();
  state.dispose();
});

const form = () => within(screen.getByRole('form', { name: /cloud/ }));

it('Test sends the stored key to the origin it was saved for', async () => {
  fireEvent.input(form().getByLabelText('Base URL'), { target: { value: 'https://api.example.com/v2' } });
  fireEvent.click(form().getByRole('button', { name: 'Test' }));

  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toEqual({ url: 'https://api.example.com/v2/models', authorization: 'Bearer sk-cloud-secret' });
});

it('Test at another origin sends no key and says so, unless the key is typed again', async () => {
  fireEvent.input(form().getByLabelText('Base URL'), { target: { value: 'https://collector.example.net/v1' } });
  fireEvent.click(form().getByRole('button', { name: 'Test' }));

  await waitFor(() => expect(sent).toHaveLength(1));
  expect(sent[0]).toEqual({ url: 'https://collector.example.net/v1/models', authorization: undefined });
  await waitFor(() => expect(form().getByText(/Tested without the stored API key/)).toBeTruthy());

  fireEvent.input(form().getByLabelText('API key'), { target: { value: 'sk-typed-again' } });
  fireEvent.click(form().getByRole('button', { name: 'Test' }));

  await waitFor(() => expect(sent).toHaveLength(2));
  expect(sent[1]?.authorization).toBe('Bearer sk-typed-again');
});
