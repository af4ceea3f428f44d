import { beforeEach, expect, test } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { applySiteRegistrations } from '../../../src/extension/hook-registrations';
import { settingsSchema } from '../../../src/settings/schema';
import { installFakeScriptingAndPermissions } from '../../support/fake-extension-apis';

beforeEach(() => fakeBrowser.reset());

// With the global switch off Retinue asks the browser nothing about its sites: no permission
// queries, no registrations, and no site reported as lacking permission.
test('with Retinue switched off everywhere, no host permission is queried and nothing is registered', async () => {
  const fake = installFakeScriptingAndPermissions();
  const queried: string[] = [];
  const permissions = { contains: async (request: { origins: string[] }) => (queried.push(...request.origins), fake.permissions.contains(request)) };
  const settings = settingsSchema.parse({
    version: 1,
    enabled: false,
    sites: [
      { origin: 'http://127.0.0.1:8000', enabled: true },
      { origin: 'https://chat.example.com', enabled: true },
    ],
  });

  const plan = await applySiteRegistrations(settings, { api: { scripting: fake.scripting, permissions }, browserName: 'chrome' });

  expect(queried).toEqual([]);
  expect(plan.lackingPermission).toEqual([]);
  expect(fake.registered.size).toBe(0);
});
