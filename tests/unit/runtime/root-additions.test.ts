import { expect, test } from 'vitest';
import { rootProfile } from '../../../src/profiles/built-in/root';
import { ROOT_ADDITIONS_BUDGET, rootAdditions } from '../../../src/runtime/root-additions';
import { profileSchema } from '../../../src/settings/schema';

test(`the built-in root adds at most ${ROOT_ADDITIONS_BUDGET} characters to the page's prompt (instructions and tool definitions)`, () => {
  const actual = rootAdditions(profileSchema.parse(rootProfile));

  expect(actual.characters).toBe(actual.instructions.length + actual.toolDefinitionsJson.length);
  expect(actual.toolDefinitionsJson).toContain('agent_delegate');
  expect(actual.instructions).toContain('How your reply is sent');
  expect(actual.characters).toBeLessThanOrEqual(ROOT_ADDITIONS_BUDGET);
});

test("the chat tools are described to the helpers that use them, not in the root's additions", () => {
  const actual = rootAdditions(profileSchema.parse(rootProfile));

  expect(`${actual.instructions}${actual.toolDefinitionsJson}`).not.toMatch(/chat_search|chat_read_messages/);
});
