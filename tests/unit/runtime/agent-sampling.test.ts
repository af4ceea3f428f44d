import { describe, expect, test } from 'vitest';
import { agentSampling } from '../../../src/runtime/agent-sampling';
import { profileSchema, type ModelBinding } from '../../../src/settings/schema';
import type { PromptSnapshot } from '../../../src/hosts/prompt-snapshot';

const own = { temperature: 0, top_k: 40, repetition_penalty: 1.1, seed: 5 };
const profileOn = (model: ModelBinding) => profileSchema.parse({ id: 'critic', name: 'Critic', description: 'Critiques.', systemPrompt: '', model });
const pageRequest: PromptSnapshot = { messages: [{ role: 'user', content: 'Hi' }], temperature: 1.3, top_p: 0.8, max_tokens: 900, presence_penalty: 0.4 };

describe('the sampling an agent’s calls carry', () => {
  test('a connection gets the page’s sampling without its max_tokens, the agent’s own on top, and only what OpenAI-compatible endpoints take', () => {
    const actual = agentSampling(pageRequest, profileOn({ binding: 'connection', connectionId: 'local', sampling: own }));

    expect(actual).toEqual({ sampling: { temperature: 0, top_p: 0.8, presence_penalty: 0.4, seed: 5 }, dropped: ['top_k', 'repetition_penalty'] });
  });

  test('the page’s own model on SillyTavern is filtered by the page’s source', () => {
    const snapshot = { ...pageRequest, chat_completion_source: 'openrouter' } as PromptSnapshot;

    const actual = agentSampling(snapshot, profileOn({ binding: 'host', sampling: own }));

    expect(actual).toEqual({ sampling: { temperature: 0, top_p: 0.8, max_tokens: 900, presence_penalty: 0.4, top_k: 40, repetition_penalty: 1.1, seed: 5 }, dropped: [] });
  });

  test('a connection profile carries none of the page’s sampling: its preset comes from the page, the agent’s own fields go as they are', () => {
    const actual = agentSampling(pageRequest, profileOn({ binding: 'hostProfile', profileName: 'Cheap helper', sampling: own }));

    expect(actual).toEqual({ sampling: own, dropped: [] });
  });

  test('without a sampling of its own, a connection profile’s call carries no sampling at all', () => {
    expect(agentSampling(pageRequest, profileOn({ binding: 'hostProfile', profileName: 'Cheap helper' }))).toEqual({ sampling: {}, dropped: [] });
  });
});
