import { expect, test } from 'vitest';
import { settingsSchema } from '../../src/settings/schema';

test('an empty version-1 document takes every default', () => {
  const actual = settingsSchema.parse({ version: 1 });
  expect(actual.defaults.maxRunningChildren).toBe(3);
  expect(actual.enabled).toBe(true);
});
