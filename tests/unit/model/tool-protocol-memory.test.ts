import { describe, expect, test } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import {
  BARE_THINK_STORAGE_KEY,
  CONTEXT_WINDOW_STORAGE_KEY,
  createStoredToolProtocolMemory,
  endpointKeyOf,
  TOOL_PROTOCOL_STORAGE_KEY,
  type KeyValueStorage,
} from '../../../src/model/tool-protocol-memory';

function fakeStorage(initial: Record<string, unknown> = {}): KeyValueStorage & { items: Record<string, unknown> } {
  const items = { ...initial };
  return {
    items,
    get: (key) => Promise.resolve(key in items ? { [key]: items[key] } : {}),
    set: (more) => {
      Object.assign(items, more);
      return Promise.resolve();
    },
  };
}

describe('tool protocol memory in extension storage', () => {
  test('an endpoint switched to prompted is remembered by a later memory over the same storage', async () => {
    const storage = fakeStorage();
    const key = endpointKeyOf({ baseURL: 'http://127.0.0.1:11434/v1', model: 'gemma3:4b' });

    await createStoredToolProtocolMemory(storage).rememberPrompted(key);

    const later = createStoredToolProtocolMemory(storage);
    expect(await later.isPrompted(key)).toBe(true);
    expect(await later.isPrompted(endpointKeyOf({ baseURL: 'http://127.0.0.1:11434/v1', model: 'qwen3:8b' }))).toBe(false);
  });

  test('a stored value that does not parse counts as empty and is replaced on the next switch', async () => {
    const storage = fakeStorage({ [TOOL_PROTOCOL_STORAGE_KEY]: 'not an object' });
    const memory = createStoredToolProtocolMemory(storage);

    expect(await memory.isPrompted('a b')).toBe(false);
    await memory.rememberPrompted('a b');
    expect(Object.keys(storage.items[TOOL_PROTOCOL_STORAGE_KEY] as object)).toEqual(['a b']);
  });

  test('at most 200 endpoints are kept, the newest', async () => {
    let clock = Date.parse('2026-11-30T00:00:00Z');
    const storage = fakeStorage();
    const memory = createStoredToolProtocolMemory(storage, () => new Date((clock += 1000)));
    for (let index = 0; index < 205; index += 1) await memory.rememberPrompted(`endpoint-${index} model`);

    expect(Object.keys(storage.items[TOOL_PROTOCOL_STORAGE_KEY] as object)).toHaveLength(200);
    expect(await memory.isPrompted('endpoint-0 model')).toBe(false);
    expect(await memory.isPrompted('endpoint-204 model')).toBe(true);
  });
});

describe('what else an endpoint refused, in the same storage', () => {
  const key = endpointKeyOf({ baseURL: 'http://127.0.0.1:8000/v1', model: 'gemma-3-4b' });

  test('a stated context window is remembered by a later memory (a worker restart, the next run)', async () => {
    const storage = fakeStorage();
    const window = { windowTokens: 2048, tokensPerEstimatedToken: 1.4, measured: true };

    await createStoredToolProtocolMemory(storage).rememberContextWindow(key, window);

    const later = createStoredToolProtocolMemory(storage);
    expect(await later.contextWindow(key)).toEqual(window);
    expect(await later.contextWindow('other model')).toBeUndefined();
    expect(await later.isPrompted(key)).toBe(false);
  });

  test('a stored window that does not parse counts as none', async () => {
    const storage = fakeStorage({ [CONTEXT_WINDOW_STORAGE_KEY]: { [key]: { windowTokens: -1 } } });

    expect(await createStoredToolProtocolMemory(storage).contextWindow(key)).toBeUndefined();
  });

  test('a refusal of stream_options is remembered apart from the tool protocol', async () => {
    const storage = fakeStorage();

    await createStoredToolProtocolMemory(storage).rememberStreamOptionsRefused(key);

    const later = createStoredToolProtocolMemory(storage);
    expect(await later.refusesStreamOptions(key)).toBe(true);
    expect(await later.isPrompted(key)).toBe(false);
  });
  test('a model seen closing its reasoning with a bare </think> is remembered once, apart from the rest', async () => {
    const storage = fakeStorage();
    const memory = createStoredToolProtocolMemory(storage);

    await memory.rememberBareThink(key);
    const stored = await storage.get(BARE_THINK_STORAGE_KEY);
    await memory.rememberBareThink(key);

    const later = createStoredToolProtocolMemory(storage);
    expect(await later.opensWithBareThink(key)).toBe(true);
    expect(await later.opensWithBareThink('other model')).toBe(false);
    expect(await later.isPrompted(key)).toBe(false);
    expect(await storage.get(BARE_THINK_STORAGE_KEY)).toEqual(stored);
  });
});

describe('tool protocol memory kept for the worker’s life', () => {
  const key = endpointKeyOf({ baseURL: 'http://127.0.0.1:8080/v1', model: 'qwen3-8b' });
  /** Extension storage (with its change events), counting the reads the memory asks for. */
  function countedStorage(): KeyValueStorage & { reads: () => number } {
    let reads = 0;
    const local = fakeBrowser.storage.local;
    return {
      get: (name) => {
        reads += 1;
        return local.get(name);
      },
      set: (items) => local.set(items),
      onChanged: local.onChanged,
      reads: () => reads,
    };
  }

  test('each fact is read from storage once, not before every model call', async () => {
    fakeBrowser.reset();
    const storage = countedStorage();
    const memory = createStoredToolProtocolMemory(storage);

    for (let call = 0; call < 5; call += 1) {
      expect(await memory.isPrompted(key)).toBe(false);
      expect(await memory.opensWithBareThink(key)).toBe(false);
    }

    expect(storage.reads()).toBe(2);
  });

  test('what another part of the extension stores is seen by the next call, and the memory’s own write at once', async () => {
    fakeBrowser.reset();
    const memory = createStoredToolProtocolMemory(countedStorage());
    expect(await memory.isPrompted(key)).toBe(false);
    expect(await memory.opensWithBareThink(key)).toBe(false);

    // The options page (or a test) resets the switches: the worker's memory follows.
    await fakeBrowser.storage.local.set({ [TOOL_PROTOCOL_STORAGE_KEY]: { [key]: '2026-12-01T00:00:00.000Z' } });
    await memory.rememberBareThink(key);

    expect(await memory.isPrompted(key)).toBe(true);
    expect(await memory.opensWithBareThink(key)).toBe(true);
    await fakeBrowser.storage.local.set({ [TOOL_PROTOCOL_STORAGE_KEY]: {} });
    expect(await memory.isPrompted(key)).toBe(false);
  });
});
