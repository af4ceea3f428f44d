// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadSettingsWithErrors, onSettingsChanged, saveSettings } from '../../../../src/settings/settings-store';
import { OptionsApp } from '../../../../src/ui/options/options-app';
import { createOptionsState, type OptionsState } from '../../../../src/ui/options/options-state';
import { installEnglishMessages } from '../../../support/english-messages';

beforeAll(installEnglishMessages);

async function storedSettings(): Promise<{ defaults: Record<string, unknown>; profiles: Array<Record<string, unknown>> }> {
  return (await fakeBrowser.storage.local.get('settings')).settings as never;
}

describe('token limit in the options page', () => {
  let state: OptionsState;

  beforeEach(async () => {
    fakeBrowser.reset();
    installEnglishMessages();
    state = createOptionsState({
      load: loadSettingsWithErrors,
      save: saveSettings,
      onChanged: (listener) => onSettingsChanged((settings) => listener(settings)),
      requestOriginPermission: async () => true,
      switchSite: async () => ({ ok: true }),
      fetch: () => Promise.reject(new Error('no network in this test')),
      download: () => undefined,
    });
    render(<OptionsApp state={state} />);
    await screen.findByRole('heading', { name: 'Agent profiles' });
  });
  afterEach(() => {
    cleanup();
    state.dispose();
  });

  it('saves a default token limit, refuses one below 1,000 by name, and empty means none', async () => {
    // Saving remounts the section with the stored values: look it up again each time.
    const section = () => within(document.getElementById('defaults')!);
    const field = () => section().getByLabelText('Token limit per run (empty for none)');

    fireEvent.input(field(), { target: { value: '10' } });
    fireEvent.click(section().getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field().getAttribute('aria-invalid')).toBe('true'));

    fireEvent.input(field(), { target: { value: '20000' } });
    fireEvent.click(section().getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await storedSettings())?.defaults.maxRunTokens).toBe(20_000));

    fireEvent.input(field(), { target: { value: '' } });
    fireEvent.click(section().getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await storedSettings())?.defaults).not.toHaveProperty('maxRunTokens'));
  });

  it('saves a root profile’s own token limit in its budget', async () => {
    const row = document.querySelector<HTMLElement>('[data-profile-id="root"]')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Duplicate' }));
    const form = within(await screen.findByRole('form', { name: /\(copy\)$/ }));

    fireEvent.input(form.getByLabelText('Token limit per run (as root, empty for the default)'), { target: { value: '50000' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));

    await waitFor(async () => expect((await storedSettings())?.profiles).toHaveLength(1));
    expect((await storedSettings()).profiles[0]).toMatchObject({ id: 'root-copy', budget: { maxRunTokens: 50_000 } });
  });
});
