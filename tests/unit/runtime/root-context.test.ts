import { expect, test } from 'vitest';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';
import { rootPolicy } from '../../../src/runtime/invocation-policy';
import { rootMessages } from '../../../src/runtime/root-context';
import { samplingFor } from '../../../src/runtime/turn-preparation';
import { profileSchema } from '../../../src/settings/schema';

const root = profileSchema.parse({
  id: 'root',
  name: 'Writer',
  description: 'Writes.',
  systemPrompt: 'Consult your retinue.',
  tools: { allow: ['agent.list'] },
  delegation: { canDelegate: true, callable: false },
});

test("the root profile's instructions are merged in front of the page's system message", () => {
  const snapshot: PromptSnapshot = { messages: [{ role: 'system', content: 'You are Mira.' }, { role: 'user', content: 'Hi' }] };

  const actual = rootMessages(snapshot, root, rootPolicy(root));

  expect(actual).toHaveLength(2);
  expect(actual[0]?.role).toBe('system');
  expect(String(actual[0]?.content).startsWith('Consult your retinue.\n\n## How your reply is sent')).toBe(true);
  expect(String(actual[0]?.content).endsWith('You are Mira.')).toBe(true);
  expect(actual[1]).toEqual({ role: 'user', content: 'Hi' });
});

test('a page without a system message gets the instructions as a new first message', () => {
  const snapshot: PromptSnapshot = { messages: [{ role: 'user', content: 'Hi' }] };

  const actual = rootMessages(snapshot, root, rootPolicy(root));

  expect(actual.map((message) => message.role)).toEqual(['system', 'user']);
});

test('sampling comes from the snapshot, with the profile overriding what it sets', () => {
  const snapshot: PromptSnapshot = { messages: [{ role: 'user', content: 'Hi' }], temperature: 0.9, top_p: 0.8, max_tokens: 300, stop: ['\n\n'] };
  const tuned = { ...root, model: { binding: 'host' as const, sampling: { temperature: 0.2 } } };

  expect(samplingFor(snapshot, tuned)).toEqual({ temperature: 0.2, top_p: 0.8, max_tokens: 300, stop: ['\n\n'] });
  expect(samplingFor({ messages: snapshot.messages }, root)).toEqual({});
});

test("the page's max_tokens applies to host-bound calls only, never to a keyed connection", () => {
  const snapshot: PromptSnapshot = { messages: [{ role: 'user', content: 'Hi' }], temperature: 0.9, max_tokens: 1_000_000 };
  const onConnection = { ...root, model: { binding: 'connection' as const, connectionId: 'cloud' } };
  const tunedConnection = { ...root, model: { binding: 'connection' as const, connectionId: 'cloud', sampling: { max_tokens: 400 } } };

  expect(samplingFor(snapshot, root)).toEqual({ temperature: 0.9, max_tokens: 1_000_000 });
  expect(samplingFor(snapshot, onConnection)).toEqual({ temperature: 0.9 });
  expect(samplingFor(snapshot, tunedConnection)).toEqual({ temperature: 0.9, max_tokens: 400 });
});
