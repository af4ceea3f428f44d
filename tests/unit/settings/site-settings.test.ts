import { describe, expect, test } from 'vitest';
import { settingsSchema } from '../../../src/settings/schema';
import { findSite, isSiteSwitchedOn, rootProfileIdFor } from '../../../src/settings/site-settings';

const settings = settingsSchema.parse({
  version: 1,
  sites: [
    { origin: 'http://127.0.0.1:8000', rootProfileId: 'answer-reviewer' },
    { origin: 'http://localhost:3000', enabled: false },
  ],
  defaults: { rootProfileId: 'root' },
});

describe('site settings', () => {
  test('a site’s own root profile wins over the default one', () => {
    expect(rootProfileIdFor(settings, 'http://127.0.0.1:8000')).toBe('answer-reviewer');
    expect(rootProfileIdFor(settings, 'http://localhost:3000')).toBe('root');
    expect(rootProfileIdFor(settings, 'https://elsewhere.example')).toBe('root');
  });

  test('a site is on only when it is switched on and so is the global switch', () => {
    expect(isSiteSwitchedOn(settings, 'http://127.0.0.1:8000')).toBe(true);
    expect(isSiteSwitchedOn(settings, 'http://localhost:3000')).toBe(false);
    expect(isSiteSwitchedOn(settings, 'http://127.0.0.1:8001')).toBe(false);
    expect(isSiteSwitchedOn({ ...settings, enabled: false }, 'http://127.0.0.1:8000')).toBe(false);
  });

  test('sites are found whatever the case of the origin', () => {
    expect(findSite(settings, 'HTTP://127.0.0.1:8000')?.origin).toBe('http://127.0.0.1:8000');
  });

  test('site origins must be exact: no wildcards, paths or non-web schemes', () => {
    const refused = ['https://*', 'http://*.example.com', 'http://127.0.0.*:8000', 'https://chat.example.com/', 'file:///tmp', 'https://*:443'];
    const accepted = ['https://chat.example.com', 'http://127.0.0.1:8000', 'http://[::1]:8000', 'http://localhost:3000'];
    for (const origin of refused) expect(settingsSchema.safeParse({ version: 1, sites: [{ origin }] }).success, origin).toBe(false);
    for (const origin of accepted) expect(settingsSchema.safeParse({ version: 1, sites: [{ origin }] }).success, origin).toBe(true);
  });
});
