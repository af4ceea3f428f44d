// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OptionsApp } from '../../../../src/ui/options/options-app';
import { createOptionsTestState, type OptionsTestState } from '../../../support/options-test-state';

const loreKeeper = `---
name: lore-keeper
description: Keeps the world's facts straight.
tools: chat_read, Read
model: small-model
---
Keep the facts.
`;

async function storedProfiles(): Promise<Array<Record<string, unknown>>> {
  const { settings } = await fakeBrowser.storage.local.get('settings');
  return ((settings as { profiles?: Array<Record<string, unknown>> } | undefined)?.profiles ?? []);
}

function pick(files: File[]) {
  const input = screen.getByLabelText('Agent files (.md)') as HTMLInputElement;
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  fireEvent.change(input);
}

describe('agents from Markdown files on the options page', () => {
  let recorded: OptionsTestState;

  beforeEach(() => {
    recorded = createOptionsTestState();
  });
  afterEach(() => {
    cleanup();
    recorded.state.dispose();
  });

  it('imports picked files, saves the good ones, lists the unknown tools and names the broken file and line', async () => {
    render(<OptionsApp state={recorded.state} />);
    await screen.findByText('Agents from Markdown files');

    pick([new File([loreKeeper], 'lore-keeper.md'), new File(['---\nname: broken\ndescription: [oops\n---\nx'], 'broken.md')]);
    fireEvent.click(await screen.findByRole('button', { name: 'Save these agents' }));

    await waitFor(async () => expect((await storedProfiles()).map((profile) => profile.id)).toEqual(['lore-keeper']));
    const stored = (await storedProfiles())[0];
    expect(stored).toMatchObject({ model: { binding: 'host', model: 'small-model' }, tools: { allow: ['chat.read'] } });
    expect(await screen.findByText(/Retinue has no tool Read; ignored/)).toBeTruthy();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(/^broken\.md, line \d+: the front matter is not valid YAML/)).toBeTruthy();
  });

  it('a dropped file imports like a picked one', async () => {
    render(<OptionsApp state={recorded.state} />);
    const card = (await screen.findByText('Agents from Markdown files')).closest('.card') as HTMLElement;

    const drop = new Event('drop', { bubbles: true, cancelable: true });
    Object.defineProperty(drop, 'dataTransfer', { value: { files: [new File([loreKeeper], 'lore-keeper.md')] } });
    fireEvent(card, drop);
    fireEvent.click(await screen.findByRole('button', { name: 'Save these agents' }));

    await waitFor(async () => expect((await storedProfiles()).map((profile) => profile.id)).toEqual(['lore-keeper']));
  });

  it('exports a profile as an agent file that names it and its tools', async () => {
    render(<OptionsApp state={recorded.state} />);
    const row = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('[data-profile-id="scene-critic"]');
      if (!found) throw new Error('the profile row is not shown yet');
      return found;
    });

    fireEvent.click(within(row).getByRole('button', { name: 'Export .md' }));

    await waitFor(() => expect(recorded.downloads).toHaveLength(1));
    expect(recorded.downloads[0]?.fileName).toBe('scene-critic.md');
    expect(recorded.downloads[0]?.content).toMatch(/^---\nname: scene-critic\ndescription: /);
  });

  it('a host-bound agent saved with a model name keeps it as its model override', async () => {
    render(<OptionsApp state={recorded.state} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Create an agent' }));
    const form = within(screen.getByRole('form', { name: 'Agent New agent' }));

    fireEvent.input(form.getByLabelText('Model id'), { target: { value: 'cheaper-model' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));

    await waitFor(async () => expect((await storedProfiles())[0]?.model).toEqual({ binding: 'host', model: 'cheaper-model' }));
  });
});
