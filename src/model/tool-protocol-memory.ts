/**
 * Remembers which endpoint+model pairs refused native tools, so later runs start in the prompted
 * protocol at once instead of being refused again. The browser keeps it in `browser.storage.local`;
 * the runner keeps it in memory.
 */
import { z } from 'zod';

export interface ToolProtocolMemory {
  /** Whether this endpoint+model was seen refusing native tools. */
  isPrompted(endpointKey: string): Promise<boolean>;
  /** Notes that it refused them. */
  rememberPrompted(endpointKey: string): Promise<void>;
}

/** The key of one endpoint and model: the base URL and the model id. */
export function endpointKeyOf(target: { baseURL: string; model: string }): string {
  return `${target.baseURL} ${target.model}`;
}

/** A memory for one process (the runner, tests). */
export function createInMemoryToolProtocolMemory(): ToolProtocolMemory {
  const prompted = new Set<string>();
  return {
    isPrompted: (endpointKey) => Promise.resolve(prompted.has(endpointKey)),
    rememberPrompted: (endpointKey) => {
      prompted.add(endpointKey);
      return Promise.resolve();
    },
  };
}

/** The part of `browser.storage.local` the stored memory needs. */
export interface KeyValueStorage {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
}

/** The `browser.storage.local` key of the stored memory. */
export const TOOL_PROTOCOL_STORAGE_KEY = 'toolProtocolSwitches';
/** Endpoints remembered at most; the oldest are forgotten first. */
const MAX_REMEMBERED = 200;

const storedSwitchesSchema = z.record(z.string().max(1_500), z.string().max(40));

/**
 * A memory kept in extension storage: `{ "<base URL> <model>": "<ISO date switched>" }`. A stored
 * value that does not parse is treated as empty (and replaced on the next switch).
 */
export function createStoredToolProtocolMemory(storage: KeyValueStorage, now: () => Date = () => new Date()): ToolProtocolMemory {
  async function read(): Promise<Record<string, string>> {
    const stored = await storage.get(TOOL_PROTOCOL_STORAGE_KEY);
    const parsed = storedSwitchesSchema.safeParse(stored[TOOL_PROTOCOL_STORAGE_KEY] ?? {});
    return parsed.success ? parsed.data : {};
  }
  return {
    isPrompted: async (endpointKey) => endpointKey in (await read()),
    async rememberPrompted(endpointKey) {
      const switches = { ...(await read()), [endpointKey.slice(0, 1_500)]: now().toISOString() };
      const newestFirst = Object.entries(switches).sort(([, first], [, second]) => second.localeCompare(first));
      await storage.set({ [TOOL_PROTOCOL_STORAGE_KEY]: Object.fromEntries(newestFirst.slice(0, MAX_REMEMBERED)) });
    },
  };
}
