// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { deleteDB } from 'idb';
import { PRIVATE_DATABASE_NAME } from '../../../../src/settings/private-database';
import { loadSettings, loadSettingsWithErrors, onSettingsChanged, saveSettings } from '../../../../src/settings/settings-store';
import { OptionsApp } from '../../../../src/ui/options/options-app';
import { createOptionsState, type OptionsState } from '../../../../src/ui/options/options-state';
import { installEnglishMessages } from '../../../support/english-messages';

beforeAll(installEnglishMessages);

const DESIGN_EXAMPLE = {
  version: 1,
  connections: [{ id: 'local', label: 'Local llama.cpp', baseURL: 'http://127.0.0.1:8080/v1', apiKey: '', defaultModel: 'qwen3-8b', maxConcurrency: 2 }],
  profiles: [
    {
      id: 'continuity-checker', name: 'Continuity checker', description: 'Finds contradictions with earlier events, names and character motives.',
      systemPrompt: '...', model: { binding: 'connection', connectionId: 'local', model: 'qwen3-8b' },
      tools: { allow: ['chat.read', 'workspace.list', 'workspace.read', 'workspace.write'] },
      delegation: { canDelegate: false, callable: true }, budget: { maxRounds: 6, maxToolCalls: 12, timeoutMs: 120000 }, context: { recentChatMessages: 0 },
    },
  ],
  sites: [{ origin: 'http://127.0.0.1:8000', enabled: true, adapter: 'auto', rootProfileId: 'root' }],
  defaults: { rootProfileId: 'root', maxRunningChildren: 3, maxTasksPerRun: 8, awaitTimeoutMs: 120000, retentionDays: 30 },
};

async function storedSettings(): Promise<Record<string, unknown> & { profiles: Array<Record<string, unknown>>; connections: Array<Record<string, unknown>> }> {
  return (await fakeBrowser.storage.local.get('settings')).settings as never;
}

describe('OptionsApp', () => {
  let state: OptionsState;
  let permissionRequests: string[];
  let grantPermission: boolean;
  let downloads: Array<{ fileName: string; content: string }>;

  beforeEach(async () => {
    fakeBrowser.reset();
    await deleteDB(PRIVATE_DATABASE_NAME);
    installEnglishMessages();
    permissionRequests = [];
    grantPermission = true;
    downloads = [];
    state = createOptionsState({
      load: loadSettingsWithErrors,
      save: saveSettings,
      onChanged: (listener) => onSettingsChanged((settings) => listener(settings)),
      requestOriginPermission: async (...origins) => {
        const asked = origins.filter((origin) => !origin.startsWith('http://127.0.0.1'));
        if (asked.length === 0) return true;
        permissionRequests.push(...asked);
        return grantPermission;
      },
      switchSite: async () => ({ ok: true }),
      fetch: () => Promise.reject(new Error('no network in this test')),
      download: (fileName, content) => void downloads.push({ fileName, content }),
    });
  });
  afterEach(() => {
    cleanup();
    state.dispose();
  });

  async function show() {
    render(<OptionsApp state={state} />);
    await screen.findByRole('heading', { name: 'Agent profiles' });
    // The settings (keys from the private database) arrive, and follow a save, a step after the render.
    const stored = await loadSettings();
    await waitFor(() => expect(state.settings.value).toEqual(stored));
  }

  function profileRow(profileId: string): HTMLElement {
    return document.querySelector<HTMLElement>(`[data-profile-id="${profileId}"]`)!;
  }

  it("tells, beside the tasks-at-once field, of the browser's six connections to one server", async () => {
    // Seen on a real SillyTavern 1.18: with six helpers and the writer's call, the sixth helper's call waited for a connection.
    await show();
    const field = within(document.getElementById('defaults')!).getByLabelText('Tasks running at once per run');

    const hint = document.getElementById(field.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toContain('at most 6 connections to one server');
  });

  it('shows a built-in profile read-only, with duplicate but no delete', async () => {
    await show();
    const row = within(profileRow('scene-critic'));

    fireEvent.click(row.getByRole('button', { name: /Scene critic/ }));

    expect(row.getByText('Built-in')).toBeTruthy();
    expect(row.queryByRole('button', { name: /^Delete/ })).toBeNull();
    expect((profileRow('scene-critic').querySelector('fieldset') as HTMLFieldSetElement).disabled).toBe(true);
    expect(row.queryByRole('button', { name: 'Save' })).toBeNull();
  });

  it('duplicates a built-in, edits the copy and saves it to storage', async () => {
    await show();
    fireEvent.click(within(profileRow('scene-critic')).getByRole('button', { name: 'Duplicate' }));
    const form = within(screen.getByRole('form', { name: 'Agent Scene critic (copy)' }));

    fireEvent.input(form.getByLabelText('Name'), { target: { value: 'Harsh critic' } });
    fireEvent.input(form.getByLabelText('Max rounds'), { target: { value: '3' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));

    await waitFor(async () => expect((await storedSettings())?.profiles).toHaveLength(1));
    const saved = (await storedSettings()).profiles[0]!;
    expect(saved).toMatchObject({ id: 'scene-critic-copy', name: 'Harsh critic', budget: { maxRounds: 3, maxToolCalls: 10 } });
    await waitFor(() => expect(within(profileRow('scene-critic-copy')).getByText('Custom')).toBeTruthy());
  });

  it('sets a profile to ask for review of its results, and stores review "ask"', async () => {
    await show();
    fireEvent.click(within(profileRow('scene-critic')).getByRole('button', { name: 'Duplicate' }));
    const form = within(screen.getByRole('form', { name: 'Agent Scene critic (copy)' }));
    const review = form.getByLabelText('Review results') as HTMLSelectElement;
    expect(review.value).toBe('none');

    fireEvent.change(review, { target: { value: 'ask' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));

    await waitFor(async () => expect((await storedSettings())?.profiles).toHaveLength(1));
    expect((await storedSettings()).profiles[0]).toMatchObject({ id: 'scene-critic-copy', review: 'ask' });
  });

  it('sets when a profile runs, every N turns with its N, and stores the words', async () => {
    await show();
    fireEvent.click(within(profileRow('scene-critic')).getByRole('button', { name: 'Duplicate' }));
    const form = within(screen.getByRole('form', { name: 'Agent Scene critic (copy)' }));
    const runs = form.getByLabelText('Runs') as HTMLSelectElement;
    expect(runs.value).toBe('when asked');

    fireEvent.change(runs, { target: { value: 'every N turns' } });
    fireEvent.input(form.getByLabelText('N (turns)'), { target: { value: '3' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));

    await waitFor(async () => expect((await storedSettings())?.profiles).toHaveLength(1));
    expect((await storedSettings()).profiles[0]).toMatchObject({ id: 'scene-critic-copy', runs: 'every 3 turns' });
  });

  it('refuses an invalid profile with the error next to the field, and stores nothing', async () => {
    await show();
    fireEvent.click(screen.getByRole('button', { name: 'Create an agent' }));
    const form = within(screen.getByRole('form', { name: 'Agent New agent' }));

    fireEvent.input(form.getByLabelText('Max rounds'), { target: { value: '0' } });
    fireEvent.input(form.getByLabelText('Id'), { target: { value: 'Bad Id' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));

    const rounds = form.getByLabelText('Max rounds');
    await waitFor(() => expect(rounds.getAttribute('aria-invalid')).toBe('true'));
    const roundsError = document.getElementById(rounds.getAttribute('aria-describedby')!.split(' ').pop()!);
    expect(roundsError?.textContent).toContain('budget.maxRounds');
    expect(form.getByLabelText('Id').getAttribute('aria-invalid')).toBe('true');
    expect(await storedSettings()).toBeUndefined();
  });

  it('refuses a connection binding without a connection, naming model.connectionId', async () => {
    await show();
    fireEvent.click(screen.getByRole('button', { name: 'Create an agent' }));
    const form = within(screen.getByRole('form', { name: 'Agent New agent' }));

    fireEvent.change(form.getByLabelText('Model binding'), { target: { value: 'connection' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(form.getByLabelText('Connection').getAttribute('aria-invalid')).toBe('true'));
    expect(await storedSettings()).toBeUndefined();
  });

  it('imports the settings document of DESIGN.md and stores it', async () => {
    await show();

    fireEvent.input(screen.getByLabelText('Or paste JSON'), { target: { value: JSON.stringify(DESIGN_EXAMPLE) } });
    fireEvent.click(screen.getByRole('button', { name: 'Import settings' }));

    await waitFor(() => expect(screen.getByText('Settings imported.')).toBeTruthy());
    const stored = await storedSettings();
    expect(stored.connections.map((connection) => connection.id)).toEqual(['local']);
    expect(stored.profiles.map((profile) => profile.id)).toEqual(['continuity-checker']);
  });

  it('refuses an import with errors that name the field, and keeps the stored settings', async () => {
    await show();
    const broken = structuredClone(DESIGN_EXAMPLE) as { profiles: Array<{ tools: { allow: string[] } }> };
    broken.profiles[0]!.tools.allow = ['shell.exec'];

    fireEvent.input(screen.getByLabelText('Or paste JSON'), { target: { value: JSON.stringify(broken) } });
    fireEvent.click(screen.getByRole('button', { name: 'Import settings' }));

    await waitFor(() => expect(document.getElementById('import-errors')?.textContent).toContain('profiles[0].tools.allow[0]'));
    expect(await storedSettings()).toBeUndefined();
  });

  it('asks for access to the imported connections’ origins, and imports nothing when it is refused', async () => {
    await show();
    grantPermission = false;
    const document = { version: 1, connections: [{ id: 'cloud', baseURL: 'https://api.example.com/v1', defaultModel: 'm' }] };

    fireEvent.input(screen.getByLabelText('Or paste JSON'), { target: { value: JSON.stringify(document) } });
    fireEvent.click(screen.getByRole('button', { name: 'Import settings' }));

    await waitFor(() => expect(screen.getByText(/Access to https:\/\/api\.example\.com was not granted, so nothing was imported/)).toBeTruthy());
    expect(permissionRequests).toEqual(['https://api.example.com']);
    expect(await storedSettings()).toBeUndefined();
  });

  it('an import that moves a keyed connection to another origin drops its key and says so', async () => {
    await saveSettings({ version: 1, connections: [{ id: 'cloud', label: 'Cloud', baseURL: 'https://api.example.com/v1', apiKey: 'sk-secret', defaultModel: 'm' }] });
    await show();
    const moved = { version: 1, connections: [{ id: 'cloud', label: 'Cloud', baseURL: 'https://collector.example.net/v1', defaultModel: 'm' }] };

    fireEvent.input(screen.getByLabelText('Or paste JSON'), { target: { value: JSON.stringify(moved) } });
    fireEvent.click(screen.getByRole('button', { name: 'Import settings' }));

    await waitFor(() => expect(screen.getByText(/lost their stored API key.*Cloud/)).toBeTruthy());
    expect(permissionRequests).toEqual(['https://collector.example.net']);
    expect((await loadSettings()).connections[0]).toMatchObject({ baseURL: 'https://collector.example.net/v1', apiKey: '' });
  });

  it('editing a connection’s address to another origin drops the stored key unless a new one is typed', async () => {
    await saveSettings({ version: 1, connections: [{ id: 'cloud', label: 'Cloud', baseURL: 'https://api.example.com/v1', apiKey: 'sk-secret', defaultModel: 'm' }] });
    await show();
    const form = () => within(screen.getByRole('form', { name: /cloud/ }));

    fireEvent.input(form().getByLabelText('Base URL'), { target: { value: 'https://collector.example.net/v1' } });
    fireEvent.click(form().getByRole('button', { name: 'Save' }));

    await waitFor(async () => expect((await loadSettings()).connections[0]).toMatchObject({ baseURL: 'https://collector.example.net/v1', apiKey: '' }));
    expect(screen.getByText(/the stored API key was removed/)).toBeTruthy();
    expect(permissionRequests).toEqual(['https://collector.example.net']);
  });

  it('editing an address on the same origin keeps the key; a new key at a new origin is saved', async () => {
    await saveSettings({ version: 1, connections: [{ id: 'cloud', label: 'Cloud', baseURL: 'https://api.example.com/v1', apiKey: 'sk-secret', defaultModel: 'm' }] });
    await show();
    const form = () => within(screen.getByRole('form', { name: /cloud/ }));

    fireEvent.input(form().getByLabelText('Base URL'), { target: { value: 'https://api.example.com/v2' } });
    fireEvent.click(form().getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await loadSettings()).connections[0]).toMatchObject({ baseURL: 'https://api.example.com/v2', apiKey: 'sk-secret' }));

    fireEvent.input(form().getByLabelText('Base URL'), { target: { value: 'https://other.example.org/v1' } });
    fireEvent.input(form().getByLabelText('API key'), { target: { value: 'sk-other' } });
    fireEvent.click(form().getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await loadSettings()).connections[0]).toMatchObject({ baseURL: 'https://other.example.org/v1', apiKey: 'sk-other' }));
  });

  it('shows why a single-profile import was refused', async () => {
    await show();
    const profile = { id: 'lore-keeper', name: 'Lore keeper', description: 'Knows the world.', systemPrompt: 'Keep lore.', model: { binding: 'connection', connectionId: 'missing' } };

    fireEvent.input(screen.getByLabelText('Or paste JSON'), { target: { value: JSON.stringify(profile) } });
    fireEvent.click(screen.getByRole('button', { name: 'Import as one agent' }));

    await waitFor(() => expect(document.getElementById('import-errors')?.textContent).toContain('model.connectionId'));
    expect(await storedSettings()).toBeUndefined();
  });

  it('imports a single profile', async () => {
    await show();
    const profile = { id: 'lore-keeper', name: 'Lore keeper', description: 'Knows the world.', systemPrompt: 'Keep lore.' };

    fireEvent.input(screen.getByLabelText('Or paste JSON'), { target: { value: JSON.stringify(profile) } });
    fireEvent.click(screen.getByRole('button', { name: 'Import as one agent' }));

    await waitFor(async () => expect((await storedSettings())?.profiles.map((entry) => entry.id)).toEqual(['lore-keeper']));
  });

  it('masks the API key, says keys are stored unencrypted, and asks permission for a remote endpoint', async () => {
    await show();
    fireEvent.click(screen.getByRole('button', { name: 'Add a connection' }));
    const form = within(screen.getByRole('form', { name: 'New connection' }));
    expect(form.getByLabelText('API key').getAttribute('type')).toBe('password');
    expect(screen.getAllByText(/stored unencrypted in the browser's extension storage/).length).toBeGreaterThan(0);

    fireEvent.input(form.getByLabelText('Id'), { target: { value: 'remote' } });
    fireEvent.input(form.getByLabelText('Base URL'), { target: { value: 'https://api.example.com/v1' } });
    fireEvent.input(form.getByLabelText('Default model'), { target: { value: 'gpt-x' } });
    grantPermission = false;
    fireEvent.click(form.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(form.getByLabelText('Base URL').getAttribute('aria-invalid')).toBe('true'));
    expect(permissionRequests).toEqual(['https://api.example.com']);
    expect(await storedSettings()).toBeUndefined();

    grantPermission = true;
    fireEvent.click(form.getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await storedSettings())?.connections.map((connection) => connection.id)).toEqual(['remote']));
  });

  it('saves a local connection without asking for permission', async () => {
    await show();
    fireEvent.click(screen.getByRole('button', { name: 'Add a connection' }));
    const form = within(screen.getByRole('form', { name: 'New connection' }));

    fireEvent.input(form.getByLabelText('Id'), { target: { value: 'local' } });
    fireEvent.input(form.getByLabelText('Default model'), { target: { value: 'qwen3-8b' } });
    fireEvent.change(form.getByLabelText('Tool protocol'), { target: { value: 'prompted' } });
    fireEvent.click(form.getByRole('button', { name: 'Save' }));

    await waitFor(async () => expect((await storedSettings())?.connections).toHaveLength(1));
    expect((await storedSettings()).connections[0]).toMatchObject({ id: 'local', toolProtocol: 'prompted' });
    expect(permissionRequests).toEqual([]);
  });

  it('saves the defaults, refusing an out-of-range value by name', async () => {
    await show();
    const section = within(document.getElementById('defaults')!);

    fireEvent.input(section.getByLabelText('Tasks per run at most'), { target: { value: '500' } });
    fireEvent.click(section.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(section.getByLabelText('Tasks per run at most').getAttribute('aria-invalid')).toBe('true'));

    fireEvent.input(section.getByLabelText('Tasks per run at most'), { target: { value: '5' } });
    fireEvent.input(section.getByLabelText('Await timeout (seconds)'), { target: { value: '60' } });
    fireEvent.click(section.getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await storedSettings())?.defaults).toMatchObject({ maxTasksPerRun: 5, awaitTimeoutMs: 60_000 }));
  });

  it('saves the delegation depth, refusing one outside 1–4 by name', async () => {
    await show();
    const section = within(document.getElementById('defaults')!);

    fireEvent.input(section.getByLabelText('Delegation depth at most'), { target: { value: '9' } });
    fireEvent.click(section.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(section.getByLabelText('Delegation depth at most').getAttribute('aria-invalid')).toBe('true'));

    fireEvent.input(section.getByLabelText('Delegation depth at most'), { target: { value: '3' } });
    fireEvent.click(section.getByRole('button', { name: 'Save' }));
    await waitFor(async () => expect((await storedSettings())?.defaults).toMatchObject({ maxDepth: 3 }));
  });

  it('exports the settings without API keys unless asked, and one profile', async () => {
    await saveSettings({ ...DESIGN_EXAMPLE, connections: [{ ...DESIGN_EXAMPLE.connections[0]!, apiKey: 'sk-secret' }] } as never);
    await show();

    fireEvent.click(screen.getByRole('button', { name: 'Export settings' }));
    fireEvent.click(within(profileRow('researcher')).getByRole('button', { name: 'Export' }));

    expect(downloads.map((download) => download.fileName)).toEqual(['retinue-settings.json', 'retinue-profile-researcher.json']);
    expect(downloads[0]!.content).not.toContain('sk-secret');
    expect(JSON.parse(downloads[1]!.content).id).toBe('researcher');
  });
});

describe('OptionsApp sites', () => {
  let state: OptionsState;
  let switches: Array<{ origin: string; enabled: boolean }>;

  beforeEach(async () => {
    fakeBrowser.reset();
    installEnglishMessages();
    switches = [];
    await saveSettings({ version: 1, sites: [{ origin: 'http://127.0.0.1:8000', enabled: true, adapter: 'auto' }] });
    state = createOptionsState({
      load: loadSettingsWithErrors,
      save: saveSettings,
      onChanged: (listener) => onSettingsChanged((settings) => listener(settings)),
      requestOriginPermission: async () => true,
      switchSite: async (origin, enabled) => {
        switches.push({ origin, enabled });
        return enabled && origin.startsWith('https://') ? { ok: false, message: `Access to ${origin} was not granted.` } : { ok: true };
      },
      fetch: () => Promise.reject(new Error('no network in this test')),
      download: () => undefined,
    });
    render(<OptionsApp state={state} />);
    await screen.findByRole('heading', { name: 'Sites' });
  });
  afterEach(() => {
    cleanup();
    state.dispose();
  });

  it('switches a site off, changes its adapter and root agent', async () => {
    const section = within(document.getElementById('sites')!);

    fireEvent.click(section.getByRole('switch', { name: 'Retinue on for http://127.0.0.1:8000' }));
    fireEvent.change(section.getByRole('combobox', { name: 'Adapter for http://127.0.0.1:8000' }), { target: { value: 'sillytavern' } });
    await waitFor(async () => expect((await storedSettings()).sites).toEqual([expect.objectContaining({ adapter: 'sillytavern' })]));
    fireEvent.change(section.getByRole('combobox', { name: 'Root agent for http://127.0.0.1:8000' }), { target: { value: 'answer-reviewer' } });

    expect(switches).toEqual([{ origin: 'http://127.0.0.1:8000', enabled: false }]);
    await waitFor(async () => expect((await storedSettings()).sites).toEqual([expect.objectContaining({ adapter: 'sillytavern', rootProfileId: 'answer-reviewer' })]));
    fireEvent.change(section.getByRole('combobox', { name: 'Tool protocol for http://127.0.0.1:8000' }), { target: { value: 'native' } });
    await waitFor(async () => expect((await storedSettings()).sites).toEqual([expect.objectContaining({ rootProfileId: 'answer-reviewer', toolProtocol: 'native' })]));
  });

  it('adds a site by its address, refusing what is no web address, and says when access was refused', async () => {
    const section = within(document.getElementById('sites')!);
    const address = section.getByLabelText('Add a site');

    fireEvent.input(address, { target: { value: 'ftp://files.example.com' } });
    fireEvent.click(section.getByRole('button', { name: 'Add and switch on' }));
    expect(address.getAttribute('aria-invalid')).toBe('true');
    expect(switches).toEqual([]);

    fireEvent.input(address, { target: { value: 'https://chat.example.com/some/page' } });
    fireEvent.click(section.getByRole('button', { name: 'Add and switch on' }));

    expect(switches).toEqual([{ origin: 'https://chat.example.com', enabled: true }]);
    await waitFor(() => expect(screen.getByText('Access to https://chat.example.com was not granted.')).toBeTruthy());
  });
});
