import type { SettingsInput } from '../../../src/settings/schema';
import type { ScriptedModelServer } from '../../support/scripted-model-server';

/**
 * The settings the page-chain tests run with: a root on the page's own model (`[[root]]`), a scene
 * critic on a keyed connection (`[[critic]]`) and a continuity checker on the page's model
 * (`[[checker]]`), with the page's origin switched on. The markers tell requests apart.
 */
export function pageChainSettings(server: ScriptedModelServer, pageOrigin: string): SettingsInput {
  return {
    version: 1,
    connections: [{ id: 'local', baseURL: server.baseURL, apiKey: 'sk-local', defaultModel: 'scripted-model' }],
    profiles: [
      {
        id: 'root',
        name: 'Writer',
        description: 'The page model.',
        systemPrompt: '[[root]] You write the reply.',
        model: { binding: 'host' },
        tools: { allow: ['agent.list', 'agent.delegate', 'agent.await', 'agent.cancel'] },
        delegation: { canDelegate: true, callable: false },
      },
      {
        id: 'scene-critic',
        name: 'Scene critic',
        description: 'Critiques a scene.',
        systemPrompt: '[[critic]] You critique scenes.',
        model: { binding: 'connection', connectionId: 'local' },
      },
      {
        id: 'continuity-checker',
        name: 'Continuity checker',
        description: 'Finds contradictions.',
        systemPrompt: '[[checker]] You check continuity.',
        model: { binding: 'host' },
      },
    ],
    sites: [{ origin: pageOrigin, enabled: true }],
  };
}
