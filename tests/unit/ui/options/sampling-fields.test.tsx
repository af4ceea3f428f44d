// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { useState } from 'preact/hooks';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { builtInProfiles } from '../../../../src/profiles/built-in-profiles';
import { settingsSchema } from '../../../../src/settings/schema';
import { draftFromProfile, profileInputFromDraft, type ProfileDraft } from '../../../../src/ui/options/profile-draft';
import { SamplingFields } from '../../../../src/ui/options/sampling-fields';
import { installEnglishMessages } from '../../../support/english-messages';

beforeAll(installEnglishMessages);

const settings = settingsSchema.parse({ version: 1, sites: [{ origin: 'http://127.0.0.1:8000', enabled: true }] });
let latest: ProfileDraft;

function Harness() {
  const [draft, setDraft] = useState(() => draftFromProfile(builtInProfiles[0]!));
  latest = draft;
  return <SamplingFields prefix="p" value={draft.sampling} errors={{}} settings={settings} onChange={(sampling) => setDraft({ ...draft, sampling })} />;
}

describe('an agent’s sampling in the options page', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    installEnglishMessages();
  });
  afterEach(cleanup);

  it('takes the fields by hand, and the profile gets them as numbers (reasoning effort as its word)', () => {
    render(<Harness />);

    fireEvent.input(screen.getByLabelText('Top K'), { target: { value: '40' } });
    fireEvent.input(screen.getByLabelText('Repetition penalty'), { target: { value: '1.1' } });
    fireEvent.change(screen.getByLabelText('Reasoning effort'), { target: { value: 'low' } });

    expect((profileInputFromDraft(latest).model as { sampling?: unknown }).sampling).toEqual({ top_k: 40, repetition_penalty: 1.1, reasoning_effort: 'low' });
  });

  it('fills them from a preset of the open SillyTavern page, by its name', async () => {
    fakeBrowser.tabs.query = (async () => [{ id: 7, url: 'http://127.0.0.1:8000/' }]) as unknown as typeof fakeBrowser.tabs.query;
    fakeBrowser.tabs.sendMessage = (async () => ({
      kind: 'profiles',
      profiles: [],
      presets: [
        { name: 'Default', sampling: { temperature: 1 } },
        { name: 'Cold critic', sampling: { temperature: 0.1, top_p: 0.5, seed: 7 } },
      ],
    })) as unknown as typeof fakeBrowser.tabs.sendMessage;
    render(<Harness />);

    fireEvent.click(screen.getByRole('button', { name: 'Fill from a SillyTavern preset' }));
    const picker = await screen.findByLabelText('Preset of the open SillyTavern page');
    fireEvent.change(picker, { target: { value: 'Cold critic' } });
    fireEvent.click(screen.getByRole('button', { name: 'Fill in' }));

    await waitFor(() => expect((screen.getByLabelText('Temperature') as HTMLInputElement).value).toBe('0.1'));
    expect((profileInputFromDraft(latest).model as { sampling?: unknown }).sampling).toEqual({ temperature: 0.1, top_p: 0.5, seed: 7 });
  });
});
