import { describe, expect, test } from 'vitest';
import { z } from 'zod';
import {
  assistantMessage,
  parseToolArguments,
  toCanonicalToolName,
  toolCallsOf,
  toolResultMessage,
  toProviderToolName,
  toToolDefinition,
} from '../../../src/model/tool-protocol';
import { allowableToolNames } from '../../../src/settings/tool-names';

describe('tool protocol', () => {
  test('every canonical tool name survives the trip to a provider name and back', () => {
    for (const name of [...allowableToolNames, 'task.return']) {
      const providerName = toProviderToolName(name);
      expect(providerName).toMatch(/^[a-zA-Z0-9_-]+$/);
      expect(toCanonicalToolName(providerName)).toBe(name);
    }
    expect(toProviderToolName('agent.delegate')).toBe('agent_delegate');
  });

  test('a tool whose own name has an underscore keeps it: only the namespace separator is a dot', () => {
    expect(toProviderToolName('chat.read_messages')).toBe('chat_read_messages');
    expect(toCanonicalToolName('chat_read_messages')).toBe('chat.read_messages');
    expect(toCanonicalToolName('agent_delegate')).toBe('agent.delegate');
    // A model that writes the canonical name itself (a text tool call) is read as it wrote it.
    expect(toCanonicalToolName('chat.read_messages')).toBe('chat.read_messages');
  });

  test('a tool definition carries JSON Schema a provider accepts, without zod noise or validation-only bounds', () => {
    const parameters = z.strictObject({
      path: z.string().min(1).max(512).describe('A workspace path such as summaries/notes.md.'),
      limit: z.number().int().min(1).max(30).optional(),
      mode: z.enum(['replace', 'append']).default('replace'),
      context: z.union([z.string(), z.record(z.string(), z.unknown())]),
    });

    const actual = toToolDefinition({ name: 'workspace.write', description: 'Write a file.', parameters });

    expect(actual).toEqual({
      type: 'function',
      function: {
        name: 'workspace_write',
        description: 'Write a file.',
        parameters: {
          type: 'object',
          properties: {
            path: { type: 'string', description: 'A workspace path such as summaries/notes.md.' },
            limit: { type: 'integer' },
            mode: { type: 'string', enum: ['replace', 'append'], default: 'replace' },
            context: { anyOf: [{ type: 'string' }, { type: 'object' }] },
          },
          required: ['path', 'context'],
        },
      },
    });
  });

  test('assistant messages and tool results have the shape the history needs', () => {
    const withCalls = assistantMessage({ content: '', toolCalls: [{ id: 'call_1', name: 'chat_read', arguments: '{}' }] });

    expect(withCalls).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'chat_read', arguments: '{}' } }],
    });
    expect(toolCallsOf(withCalls)).toEqual([{ id: 'call_1', name: 'chat_read', arguments: '{}' }]);
    expect(assistantMessage({ content: 'Done.' })).toEqual({ role: 'assistant', content: 'Done.' });
    expect(toolResultMessage('call_1', 'No messages.')).toEqual({ role: 'tool', tool_call_id: 'call_1', content: 'No messages.' });
  });

  test('bad tool JSON is explained in words the model can act on', () => {
    const actual = parseToolArguments('workspace.read', '{"path": "input/');

    expect(actual.ok).toBe(false);
    expect(actual.ok ? '' : actual.message).toMatch(/^The arguments of workspace_read were not valid JSON .*Call it again/);
    expect(parseToolArguments('workspace.finish', '')).toEqual({ ok: true, value: {} });
    expect(parseToolArguments('chat.read', '{"count": 2}')).toEqual({ ok: true, value: { count: 2 } });
  });
});
