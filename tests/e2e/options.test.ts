import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startScriptedModelServer, type ScriptedModelServer } from '../support/scripted-model-server';
import { launchChromiumWithExtension, type ChromiumWithExtension } from './support/chromium';
import { waitUntil } from './support/evaluating-handle';
import { saveScreenshot } from './support/screenshots';
import { readStorage } from './support/settings';

/** The options page in Chromium: import a settings document, edit a profile, read both back from storage. */

const DOCUMENT = {
  version: 1,
  connections: [{ id: 'local', label: 'Local llama.cpp', baseURL: 'http://127.0.0.1:8080/v1', apiKey: '', defaultModel: 'qwen3-8b', maxConcurrency: 2 }],
  profiles: [
    {
      id: 'lore-keeper', name: 'Lore keeper', description: 'Knows the established facts of the story world.',
      systemPrompt: 'Keep the lore straight.', model: { binding: 'connection', connectionId: 'local', model: 'qwen3-8b' },
      tools: { allow: ['chat.read', 'workspace.read'] }, delegation: { canDelegate: false, callable: true },
      budget: { maxRounds: 6, maxToolCalls: 12, timeoutMs: 120000 }, context: { recentChatMessages: 0 },
    },
  ],
  sites: [{ origin: 'http://127.0.0.1:8000', enabled: true, adapter: 'sillytavern', rootProfileId: 'root' }],
  defaults: { rootProfileId: 'root', maxRunningChildren: 3, maxTasksPerRun: 8, awaitTimeoutMs: 120000, retentionDays: 30 },
};

interface StoredSettings {
  profiles: Array<{ id: string; name: string; budget: { maxRounds: number } }>;
  sites: Array<{ origin: string; adapter: string }>;
}

let chromium: ChromiumWithExtension;
let options: Page;
let model: ScriptedModelServer;

beforeAll(async () => {
  model = await startScriptedModelServer({ models: ['qwen3-8b', 'scripted-model'] });
  chromium = await launchChromiumWithExtension();
  options = await chromium.openExtensionPage('options.html');
  await options.setViewportSize({ width: 1000, height: 900 });
});

afterAll(async () => {
  await chromium?.close();
  await model?.close();
});

describe('Chromium: the options page', () => {
  test('refuses a broken document naming the field, then imports a good one', async () => {
    const broken = structuredClone(DOCUMENT);
    (broken.sites[0] as { adapter: string }).adapter = 'telepathy';
    await options.getByLabel('Or paste JSON').fill(JSON.stringify(broken));
    await options.getByRole('button', { name: 'Import settings' }).click();
    await options.locator('#import-errors').getByText('sites[0].adapter', { exact: false }).first().waitFor();
    expect(await readStorage(options, 'settings')).toBeUndefined();

    await options.getByLabel('Or paste JSON').fill(JSON.stringify(DOCUMENT));
    await options.getByRole('button', { name: 'Import settings' }).click();
    await options.getByText('Settings imported.').waitFor();
    const stored = (await readStorage(options, 'settings')) as StoredSettings;
    expect(stored.profiles.map((profile) => profile.id)).toEqual(['lore-keeper']);
    expect(stored.sites).toEqual([expect.objectContaining({ origin: 'http://127.0.0.1:8000', adapter: 'sillytavern' })]);
  });

  test('saves a profile edit to storage', async () => {
    const row = options.locator('[data-profile-id="lore-keeper"]');
    await row.locator('.profile-toggle').click();
    const form = options.getByRole('form', { name: 'Agent Lore keeper' });
    await form.getByLabel('Name').fill('Lore master');
    await form.getByLabel('Max rounds').fill('4');
    await form.getByRole('button', { name: 'Save' }).click();

    const stored = await waitUntil(
      async () => {
        const settings = (await readStorage(options, 'settings')) as StoredSettings;
        return settings.profiles[0]?.name === 'Lore master' ? settings : undefined;
      },
      { description: 'the edited profile in storage' },
    );
    expect(stored.profiles[0]).toMatchObject({ id: 'lore-keeper', name: 'Lore master', budget: { maxRounds: 4 } });
  });

  test('adds a connection and tests it: the endpoint lists its models', async () => {
    await options.getByRole('button', { name: 'Add a connection' }).click();
    const form = options.getByRole('form', { name: 'New connection' });
    await form.getByLabel('Id').fill('scripted');
    await form.getByLabel('Base URL').fill(model.baseURL);
    await form.getByLabel('Default model').fill('scripted-model');
    await form.getByRole('button', { name: 'Test' }).click();
    await form.getByText('The endpoint answered with 2 models:').waitFor();
    expect(await form.locator('.model-list code').allTextContents()).toEqual(['qwen3-8b', 'scripted-model']);

    await form.getByRole('button', { name: 'Save' }).click();
    const stored = await waitUntil(
      async () => {
        const settings = (await readStorage(options, 'settings')) as { connections: Array<{ id: string; baseURL: string }> };
        return settings.connections.some((connection) => connection.id === 'scripted') ? settings : undefined;
      },
      { description: 'the new connection in storage' },
    );
    expect(stored.connections.map((connection) => connection.id)).toEqual(['local', 'scripted']);
  });

  test('imports a Markdown agent file and exports a profile as one', async () => {
    const agentFile = '---\nname: plot-scout\ndescription: Finds loose plot threads.\ntools: chat_read, Bash\nmodel: small-model\n---\nScout the plot.\n';
    await options.getByLabel('Agent files (.md)').setInputFiles({ name: 'plot-scout.md', mimeType: 'text/markdown', buffer: Buffer.from(agentFile) });
    await options.getByRole('button', { name: 'Save these agents' }).click();
    await options.getByText('Retinue has no tool Bash; ignored', { exact: false }).waitFor();
    // The save goes on after the notice is shown (keys are written to their own database first).
    await expect
      .poll(async () => ((await readStorage(options, 'settings')) as { profiles?: Array<{ id: string; model: unknown; tools: unknown }> } | undefined)?.profiles?.find((profile) => profile.id === 'plot-scout'))
      .toMatchObject({
        model: { binding: 'host', model: 'small-model' },
        tools: { allow: ['chat.read'] },
      });

    const download = options.waitForEvent('download');
    await options.locator('[data-profile-id="plot-scout"]').getByRole('button', { name: 'Export .md' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('plot-scout.md');
    const exported = await readFile(await file.path(), 'utf8');
    expect(exported).toContain('name: plot-scout');
    expect(exported).toContain('Scout the plot.');
  });

  test('looks right in light and dark', async () => {
    await options.reload();
    await options.getByRole('heading', { name: 'Agent profiles' }).waitFor();
    await options.locator('[data-profile-id="scene-critic"] .profile-toggle').click();
    await saveScreenshot(options, 'options-light-chromium');
    await options.emulateMedia({ colorScheme: 'dark' });
    await saveScreenshot(options, 'options-dark-chromium');
  });
});
