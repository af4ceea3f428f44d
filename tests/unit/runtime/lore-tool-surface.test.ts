import { expect, test } from 'vitest';
import { childPolicy, hostFeaturesOf, rootPolicy } from '../../../src/runtime/invocation-policy';
import { profileSchema } from '../../../src/settings/schema';

const keeper = profileSchema.parse({
  id: 'lore-keeper',
  name: 'Lore keeper',
  description: 'Keeps the lore.',
  systemPrompt: '',
  tools: { allow: ['chat.read', 'lore.list_activated', 'lore.search', 'lore.read', 'lore.propose', 'workspace.write'] },
});

test('a child on SillyTavern gets the lore tools its profile lists; on any other host it is not offered them', () => {
  const onSillyTavern = childPolicy(keeper, { depth: 1, maxDepth: 2, host: hostFeaturesOf('sillytavern') });
  const onOpenAiPage = childPolicy(keeper, { depth: 1, maxDepth: 2, host: hostFeaturesOf('openai-chat') });
  const unspecified = childPolicy(keeper, { depth: 1, maxDepth: 2 });

  expect(onSillyTavern.tools).toEqual(['workspace.write', 'chat.read', 'lore.list_activated', 'lore.search', 'lore.read', 'lore.propose', 'task.return']);
  expect(onOpenAiPage.tools).toEqual(['workspace.write', 'chat.read', 'task.return']);
  expect(unspecified.tools).toEqual(onOpenAiPage.tools);
});

test('the root is offered lore tools only on a host with lorebooks', () => {
  expect(rootPolicy(keeper, { lorebooks: true }).tools).toContain('lore.search');
  expect(rootPolicy(keeper).tools).not.toContain('lore.search');
});
