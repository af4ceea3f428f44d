import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { exportProfile, exportSettings, importProfile, importSettings } from '../../../src/settings/import-export';
import { createDefaultSettings } from '../../../src/settings/settings-store';
import type { Settings } from '../../../src/settings/schema';

/** Exporting and importing with API keys, and single profiles on their own. */

const designExampleText = readFileSync(new URL('../../fixtures/settings/design-example.json', import.meta.url), 'utf8');

function importObject(document: unknown, current?: Settings) {
  return importSettings(JSON.stringify(document), current);
}

describe('API keys on export and import', () => {
  const withKey = (): Settings => {
    const result = importObject({
      version: 1,
      connections: [{ id: 'cloud', baseURL: 'https://api.example.com/v1', apiKey: 'sk-secret', defaultModel: 'm' }],
    });
    if (!result.ok) throw new Error(JSON.stringify(result.errors));
    return result.settings;
  };

  test('export leaves API keys out unless asked', () => {
    const settings = withKey();

    const withoutKeys = JSON.parse(exportSettings(settings, { includeApiKeys: false }));
    const withKeys = JSON.parse(exportSettings(settings, { includeApiKeys: true }));

    expect(withoutKeys.connections[0]).not.toHaveProperty('apiKey');
    expect(exportSettings(settings, { includeApiKeys: false })).not.toContain('sk-secret');
    expect(withKeys.connections[0].apiKey).toBe('sk-secret');
  });

  test('a connection imported without a key keeps the stored key of the same id', () => {
    const current = withKey();
    const exported = exportSettings(current, { includeApiKeys: false });

    const result = importSettings(exported, current);

    expect(result.ok && result.settings.connections[0]?.apiKey).toBe('sk-secret');
  });

  test('a key never follows a connection to another origin: the import drops it and names the connection', () => {
    const current = withKey();
    const moved = { version: 1, connections: [{ id: 'cloud', label: 'Cloud', baseURL: 'https://collector.example.net/v1', defaultModel: 'm' }] };
    const otherPort = { version: 1, connections: [{ id: 'cloud', baseURL: 'https://api.example.com:8443/v1', defaultModel: 'm' }] };
    const samePlace = { version: 1, connections: [{ id: 'cloud', baseURL: 'https://api.example.com/v2?x=1', defaultModel: 'm' }] };

    const movedResult = importObject(moved, current);
    const otherPortResult = importObject(otherPort, current);
    const samePlaceResult = importObject(samePlace, current);

    expect(movedResult).toMatchObject({ ok: true, keysDropped: ['Cloud'] });
    expect(movedResult.ok && movedResult.settings.connections[0]?.apiKey).toBe('');
    expect(otherPortResult).toMatchObject({ ok: true, keysDropped: ['cloud'] });
    expect(otherPortResult.ok && otherPortResult.settings.connections[0]?.apiKey).toBe('');
    expect(samePlaceResult.ok && samePlaceResult.settings.connections[0]?.apiKey).toBe('sk-secret');
    expect(samePlaceResult).not.toHaveProperty('keysDropped');
  });

  test('a key given in the import replaces the stored one, and other ids get no key', () => {
    const current = withKey();
    const document = {
      version: 1,
      connections: [
        { id: 'cloud', baseURL: 'https://api.example.com/v1', apiKey: 'sk-new', defaultModel: 'm' },
        { id: 'other', baseURL: 'https://other.example.com/v1', defaultModel: 'm' },
      ],
    };

    const result = importObject(document, current);

    expect(result.ok && result.settings.connections.map((connection) => connection.apiKey)).toEqual(['sk-new', '']);
  });

  test('an exported document imports again to the same settings', () => {
    const imported = importSettings(designExampleText);
    if (!imported.ok) throw new Error('the example must import');

    const again = importSettings(exportSettings(imported.settings, { includeApiKeys: true }));

    expect(again).toEqual({ ok: true, settings: imported.settings });
  });
});

describe('single profiles', () => {
  const profileText = JSON.stringify({
    id: 'poet',
    name: 'Poet',
    description: 'Writes short poems on request.',
    systemPrompt: 'You write short poems.',
    tools: { allow: ['chat.read'] },
  });

  test('an imported profile is added to the document, and one with an existing id replaces it', () => {
    const added = importProfile(profileText, createDefaultSettings());
    if (!added.ok) throw new Error(JSON.stringify(added.errors));
    const changed = importProfile(JSON.stringify({ ...JSON.parse(profileText), name: 'Bard' }), added.settings);

    expect(added.settings.profiles.map((profile) => profile.id)).toEqual(['poet']);
    expect(changed.ok && changed.settings.profiles.map((profile) => profile.name)).toEqual(['Bard']);
  });

  test('a profile naming a connection the settings lack is refused with a path inside the profile', () => {
    const text = JSON.stringify({ ...JSON.parse(profileText), model: { binding: 'connection', connectionId: 'nowhere' } });

    const result = importProfile(text, createDefaultSettings());

    expect(result.ok).toBe(false);
    expect(!result.ok && result.errors[0]?.path).toBe('model.connectionId');
  });

  test('a profile with an unknown field is refused', () => {
    const result = importProfile(JSON.stringify({ ...JSON.parse(profileText), colour: 'red' }), createDefaultSettings());

    expect(!result.ok && result.errors[0]?.path).toBe('colour');
  });

  test('an exported profile imports as it stands', () => {
    const first = importProfile(profileText, createDefaultSettings());
    if (!first.ok) throw new Error('the profile must import');

    const again = importProfile(exportProfile(first.profile), createDefaultSettings());

    expect(again.ok && again.profile).toEqual(first.profile);
  });
});
