import { fakeBrowser } from 'wxt/testing/fake-browser';

/** A registered content script as the fake keeps it. */
export interface FakeRegisteredScript {
  id: string;
  js?: string[];
  matches?: string[];
  runAt?: string;
  world?: string;
  persistAcrossSessions?: boolean;
  allFrames?: boolean;
}

type Listener = (...args: unknown[]) => void;

function fakeEvent() {
  const listeners = new Set<Listener>();
  return {
    addListener: (listener: Listener) => void listeners.add(listener),
    removeListener: (listener: Listener) => void listeners.delete(listener),
    hasListener: (listener: Listener) => listeners.has(listener),
    trigger: (...args: unknown[]) => listeners.forEach((listener) => listener(...args)),
  };
}

/**
 * WXT's fake browser does not implement `scripting` or `permissions`. This fills them in with an
 * in-memory browser: registrations behave like Chrome's (a duplicate id is an error, unregistering
 * an unknown id is an error), and host permissions are a set of match patterns.
 */
export function installFakeScriptingAndPermissions(options: { grantedPatterns?: string[]; grantOnRequest?: boolean } = {}) {
  const registered = new Map<string, FakeRegisteredScript>();
  const granted = new Set(options.grantedPatterns ?? ['http://localhost/*', 'http://127.0.0.1/*']);
  const requests: string[][] = [];
  const onAdded = fakeEvent();
  const onRemoved = fakeEvent();
  const covers = (pattern: string): boolean => {
    if (granted.has(pattern)) return true;
    // A port-less grant covers every port of its host, as in Chrome.
    const withoutPort = pattern.replace(/^(https?:\/\/[^/:]+):\d+\//, '$1/');
    return granted.has(withoutPort);
  };

  const scripting = {
    async getRegisteredContentScripts(filter?: { ids?: string[] }) {
      return [...registered.values()].filter((script) => !filter?.ids || filter.ids.includes(script.id)).map((script) => structuredClone(script));
    },
    async registerContentScripts(scripts: FakeRegisteredScript[]) {
      for (const script of scripts) {
        if (registered.has(script.id)) throw new Error(`Duplicate script ID '${script.id}'`);
      }
      for (const script of scripts) registered.set(script.id, structuredClone(script));
    },
    async unregisterContentScripts(filter?: { ids?: string[] }) {
      const ids = filter?.ids ?? [...registered.keys()];
      for (const id of ids) if (!registered.has(id)) throw new Error(`Nonexistent script ID '${id}'`);
      for (const id of ids) registered.delete(id);
    },
  };
  const permissions = {
    async contains(request: { origins?: string[] }) {
      return (request.origins ?? []).every(covers);
    },
    async request(request: { origins?: string[] }) {
      requests.push(request.origins ?? []);
      if (!options.grantOnRequest) return false;
      for (const origin of request.origins ?? []) granted.add(origin);
      onAdded.trigger({ origins: request.origins });
      return true;
    },
    async remove(request: { origins?: string[] }) {
      for (const origin of request.origins ?? []) granted.delete(origin);
      onRemoved.trigger({ origins: request.origins });
      return true;
    },
    onAdded,
    onRemoved,
  };
  Object.assign(fakeBrowser.scripting, scripting);
  Object.assign(fakeBrowser.permissions, permissions);
  return { registered, granted, requests, scripting, permissions };
}
