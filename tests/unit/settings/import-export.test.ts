import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { importSettings } from '../../../src/settings/import-export';
import type { Settings } from '../../../src/settings/schema';

const designExampleText = readFileSync(new URL('../../fixtures/settings/design-example.json', import.meta.url), 'utf8');

/** JSON as a test edits it freely, to break one field at a time. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type EditableJson = Record<string, any>;

/** The DESIGN.md example as a mutable object, for tests that break one thing in it. */
function designExample(): EditableJson {
  return JSON.parse(designExampleText);
}

function importObject(document: unknown, current?: Settings) {
  return importSettings(JSON.stringify(document), current);
}

function errorsOf(document: unknown): { path: string; message: string }[] {
  const result = importObject(document);
  if (result.ok) throw new Error('expected the import to be refused');
  return result.errors;
}

describe('importing a settings document', () => {
  test('the DESIGN.md example imports as it stands, with defaults filled in', () => {
    const result = importSettings(designExampleText);

    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.settings.connections[0]).toMatchObject({ id: 'local', baseURL: 'http://127.0.0.1:8080/v1', maxConcurrency: 2 });
    expect(result.settings.profiles.map((profile) => profile.id)).toEqual(['root', 'continuity-checker']);
    expect(result.settings.profiles[1]?.model).toEqual({ binding: 'connection', connectionId: 'local', model: 'qwen3-8b' });
    expect(result.settings.sites[0]).toEqual({ origin: 'http://127.0.0.1:8000', enabled: true, adapter: 'auto', rootProfileId: 'root' });
    expect(result.settings.enabled).toBe(true);
  });

  test('a wrong type names the field, what was given and what is expected', () => {
    const document = designExample();
    document.connections[0].maxConcurrency = 'two';

    const errors = errorsOf(document);

    expect(errors).toEqual([
      {
        path: 'connections[0].maxConcurrency',
        message: 'connections[0].maxConcurrency: expected a number but got "two"; write a number here.',
      },
    ]);
  });

  test('a missing required field says to add it', () => {
    const document = designExample();
    delete document.profiles[1].name;

    const [error] = errorsOf(document);

    expect(error?.path).toBe('profiles[1].name');
    expect(error?.message).toContain('is missing; add it (a string)');
  });

  test('an unknown field is named, with the fields that are allowed there', () => {
    const document = designExample();
    document.profiles[1].model.temprature = 0.5;

    const [error] = errorsOf(document);

    expect(error?.path).toBe('profiles[1].model.temprature');
    expect(error?.message).toContain('unknown field; remove it or check its spelling');
    expect(error?.message).toContain('fields here: binding, connectionId, model, sampling');
  });

  test('an unknown binding names the field and the bindings that exist', () => {
    const document = designExample();
    document.profiles[1].model.binding = 'remote';

    const [error] = errorsOf(document);

    expect(error?.path).toBe('profiles[1].model.binding');
    expect(error?.message).toBe('profiles[1].model.binding: "remote" is not a known value; use one of "host", "hostProfile", "connection".');
  });

  test('an unknown tool in an allow-list is named with the tools that exist', () => {
    const document = designExample();
    document.profiles[0].tools.allow.push('task.return');

    const [error] = errorsOf(document);

    expect(error?.path).toBe('profiles[0].tools.allow[7]');
    expect(error?.message).toContain('"task.return" is not allowed; use one of "agent.list"');
  });

  test.each([
    ['connections', 'id', (document: EditableJson) => document.connections.push({ ...document.connections[0] }), 'connections[1].id'],
    ['profiles', 'id', (document: EditableJson) => document.profiles.push({ ...document.profiles[1] }), 'profiles[2].id'],
    ['sites', 'origin', (document: EditableJson) => document.sites.push({ origin: 'http://127.0.0.1:8000', enabled: false }), 'sites[1].origin'],
  ])('duplicate %s %s inside one document are refused at the repeat', (_list, _field, duplicate, expectedPath) => {
    const document = designExample();
    duplicate(document);

    const [error] = errorsOf(document);

    expect(error?.path).toBe(expectedPath);
    expect(error?.message).toMatch(/is already used by \w+\[\d+\]; each \w+ needs its own \w+/);
  });

  test('a profile naming a missing connection is refused with the connections that exist', () => {
    const document = designExample();
    document.profiles[1].model.connectionId = 'openrouter';

    const [error] = errorsOf(document);

    expect(error?.path).toBe('profiles[1].model.connectionId');
    expect(error?.message).toContain('names the connection "openrouter", which is not in "connections"');
    expect(error?.message).toContain('"local"');
  });

  test('allowedAgents naming an unknown agent is refused; built-in and document agents are known', () => {
    const document = designExample();
    document.profiles[0].delegation.allowedAgents = ['continuity-checker', 'scene-critic', 'poet'];

    const errors = errorsOf(document);

    expect(errors.map((error) => error.path)).toEqual(['profiles[0].delegation.allowedAgents[2]']);
    expect(errors[0]?.message).toContain('names the agent "poet", which is neither a built-in agent nor in "profiles"');
  });

  test('a site or the defaults naming an unknown root profile are refused', () => {
    const document = designExample();
    document.sites[0].rootProfileId = 'narrator';
    document.defaults.rootProfileId = 'narrator';

    const errors = errorsOf(document);

    expect(errors.map((error) => error.path)).toEqual(['sites[0].rootProfileId', 'defaults.rootProfileId']);
  });

  test('a document of a newer version is refused with a clear message', () => {
    const document = { ...designExample(), version: 2 };

    const errors = errorsOf(document);

    expect(errors).toEqual([
      {
        path: 'version',
        message:
          'version: the document is version 2, made by a newer Retinue; this one reads up to version 1. Update the extension, then import again.',
      },
    ]);
  });

  test('a document without a version says to add one', () => {
    const { version: _version, ...document } = designExample();

    expect(errorsOf(document)[0]?.message).toBe('version: is missing; add "version": 1 at the top of the document.');
  });

  test('text that is not JSON gets the line and column of the mistake', () => {
    const text = '{\n  "version": 1,\n  "connections": [\n    { "id": "local" "baseURL": "x" }\n  ]\n}';

    const result = importSettings(text);

    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors[0]?.message).toBe(
      'The text is not valid JSON: at line 4, column 21, expected "," or "}" but found "\\"". Fix the JSON there (a missing comma, quote or bracket is the usual cause).',
    );
  });

  test('a list where the document belongs is refused', () => {
    expect(errorsOf([1, 2])[0]?.message).toContain('The document: must be a JSON object');
  });
});

describe('site origins', () => {
  test.each([
    ['HTTP://LocalHost:8000', 'http://localhost:8000'],
    ['https://chat.example.com:443', 'https://chat.example.com'],
  ])('%s is refused with the form to write instead', (origin, canonical) => {
    const [error] = errorsOf({ version: 1, sites: [{ origin }] });

    expect(error).toEqual({ path: 'sites[0].origin', message: `sites[0].origin: write it as the browser does: "${canonical}".` });
  });

  test('an origin with a path is refused', () => {
    expect(errorsOf({ version: 1, sites: [{ origin: 'http://127.0.0.1:8000/chat' }] })[0]?.message).toContain('with no path');
  });
});

describe('messages for other mistakes', () => {
  test.each([
    [
      'a number out of range',
      (document: EditableJson) => (document.defaults.maxRunningChildren = 40),
      'defaults.maxRunningChildren: 40 is too big: it must be at most 16.',
    ],
    [
      'a base URL that is not http(s)',
      (document: EditableJson) => (document.connections[0].baseURL = 'ftp://127.0.0.1/v1'),
      'connections[0].baseURL: "ftp://127.0.0.1/v1" is not an http(s) URL; write one such as "http://127.0.0.1:8080/v1".',
    ],
    [
      'an id with capitals',
      (document: EditableJson) => (document.connections[0].id = 'Local'),
      'connections[0].id: "Local" has the wrong form: use lowercase letters, digits and dashes, starting with a letter or digit.',
    ],
    [
      'an unknown top-level field',
      (document: EditableJson) => (document.agents = []),
      'agents: unknown field; remove it or check its spelling (fields here: version, enabled, connections, profiles, sites, defaults).',
    ],
    [
      'an empty name',
      (document: EditableJson) => (document.profiles[0].name = ''),
      'profiles[0].name: is empty; write something here.',
    ],
    [
      'a list where an object belongs',
      (document: EditableJson) => (document.defaults = []),
      'defaults: expected an object but got a list; write an object here.',
    ],
  ])('%s', (_case, breakIt, expected) => {
    const document = designExample();
    breakIt(document);

    expect(errorsOf(document).map((error) => error.message)).toEqual([expected]);
  });

  test('every problem of a document is listed at once', () => {
    const document = designExample();
    document.connections[0].maxConcurrency = 0;
    document.profiles[1].model.binding = 'remote';
    document.sites[0].adapter = 'tavern';

    expect(errorsOf(document).map((error) => error.path)).toEqual([
      'connections[0].maxConcurrency',
      'profiles[1].model.binding',
      'sites[0].adapter',
    ]);
  });
});
