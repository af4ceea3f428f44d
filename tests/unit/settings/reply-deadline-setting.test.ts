import { expect, test } from 'vitest';
import { settingsSchema } from '../../../src/settings/schema';
import { replyDeadlineMsFor } from '../../../src/settings/site-settings';

test("a site's reply deadline wins over the default; 0 turns it off; off by default", () => {
  const settings = settingsSchema.parse({
    version: 1,
    sites: [
      { origin: 'http://127.0.0.1:8000', replyDeadlineMs: 20_000 },
      { origin: 'http://127.0.0.1:8001', replyDeadlineMs: 0 },
      { origin: 'http://127.0.0.1:8002' },
    ],
    defaults: { replyDeadlineMs: 45_000 },
  });
  expect(replyDeadlineMsFor(settings, 'http://127.0.0.1:8000')).toBe(20_000);
  expect(replyDeadlineMsFor(settings, 'http://127.0.0.1:8001')).toBeUndefined();
  expect(replyDeadlineMsFor(settings, 'http://127.0.0.1:8002')).toBe(45_000);
  expect(replyDeadlineMsFor(settingsSchema.parse({ version: 1 }), 'http://127.0.0.1:8002')).toBeUndefined();
});

test('a reply deadline outside 0–600,000 ms is refused with the field named', () => {
  const result = settingsSchema.safeParse({ version: 1, defaults: { replyDeadlineMs: 700_000 } });
  expect(result.success).toBe(false);
  expect(result.error?.issues[0]?.path).toEqual(['defaults', 'replyDeadlineMs']);
});
