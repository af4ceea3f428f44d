import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { builtInProfileIds } from '../../../src/profiles/built-in-profiles';
import { importSettings } from '../../../src/settings/import-export';
import {
  connectionSchema,
  defaultsSchema,
  profileSchema,
  samplingSchema,
  settingsSchema,
  siteSchema,
} from '../../../src/settings/schema';

const documentation = readFileSync(new URL('../../../docs/settings.md', import.meta.url), 'utf8');

/** The first ```json block of the page: the complete example users copy. */
function exampleDocument(): string {
  const match = /```json\n([\s\S]*?)\n```/.exec(documentation);
  if (!match?.[1]) throw new Error('docs/settings.md has no ```json block');
  return match[1];
}

describe('docs/settings.md', () => {
  test('its complete example imports as it stands', () => {
    const result = importSettings(exampleDocument());

    expect(result.ok ? [] : result.errors).toEqual([]);
  });

  test('the example overrides a built-in, binds a profile to a connection and sets up both adapters', () => {
    const result = importSettings(exampleDocument());
    if (!result.ok) throw new Error('the example must import');

    expect(result.settings.profiles.some((profile) => builtInProfileIds.includes(profile.id))).toBe(true);
    expect(result.settings.profiles.some((profile) => profile.model.binding === 'connection')).toBe(true);
    expect(result.settings.sites.map((site) => site.adapter).sort()).toEqual(['openai-chat', 'sillytavern']);
  });

  test.each([
    ['top level', Object.keys(settingsSchema.unwrap().shape)],
    ['connections[]', Object.keys(connectionSchema.unwrap().shape)],
    ['profiles[]', Object.keys(profileSchema.unwrap().shape)],
    ['sampling', Object.keys(samplingSchema.unwrap().shape)],
    ['sites[]', Object.keys(siteSchema.unwrap().shape)],
    ['defaults', Object.keys(defaultsSchema.unwrap().shape)],
  ])('every field of %s is documented', (_section, fields) => {
    for (const field of fields) expect(documentation, field).toMatch(new RegExp('`(\\w+\\.)?' + field + '(\\.\\w+)?`'));
  });

  test('every built-in agent is listed', () => {
    for (const id of builtInProfileIds) expect(documentation, id).toContain(`| \`${id}\` |`);
  });
});
