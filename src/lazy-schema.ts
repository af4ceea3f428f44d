import { z } from 'zod';

/**
 * A schema built the first time it is used (parsed, composed into a parse, or unwrapped), not when
 * its module is evaluated: a waking service worker then builds only the schemas its event needs
 * (docs/performance.md). It validates exactly as the schema `build` returns; `unwrap()` gives that
 * schema (built once), for its `shape`, `options` or `extend`.
 *
 * @example
 * export const siteSchema = lazySchema(() => z.strictObject({ origin: z.string(), enabled: z.boolean() }));
 * siteSchema.parse(value); // builds the object schema now, then parses
 * siteSchema.unwrap().shape.origin; // the same built schema
 */
export function lazySchema<Schema extends z.ZodType>(build: () => Schema): z.ZodLazy<Schema> {
  let built: Schema | undefined;
  return z.lazy(() => (built ??= build()));
}

/**
 * A record of schemas (or of anything costly to build), built the first time one of its keys is
 * read or listed, for tables such as the journal's schema per event type. It reads as the record
 * `build` returns; it is read-only.
 *
 * @example
 * export const eventDataSchemas = lazyRecord(() => ({ 'run-start': z.looseObject({ origin: z.string().optional() }) }));
 * Object.keys(eventDataSchemas); // builds the record now: ['run-start']
 */
export function lazyRecord<Record extends object>(build: () => Record): Readonly<Record> {
  let built: Record | undefined;
  const record = (): Record => (built ??= build());
  const refuse = (): never => {
    throw new TypeError('A lazily built record is read-only.');
  };
  return new Proxy({} as Record, {
    get: (_target, key) => Reflect.get(record(), key),
    has: (_target, key) => Reflect.has(record(), key),
    ownKeys: () => Reflect.ownKeys(record()),
    getOwnPropertyDescriptor: (_target, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(record(), key);
      // The proxy's own target stays empty, so every property must read as configurable.
      return descriptor && { ...descriptor, configurable: true };
    },
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
  });
}

/**
 * A list built the first time it is read, for module-level lists of parsed values (the built-in
 * profiles). It reads as the array `build` returns (`Array.isArray` holds, spreads and iterates);
 * it is read-only.
 *
 * @example
 * export const builtIns = lazyList(() => sources.map((source) => profileSchema.parse(source)));
 * builtIns.find((profile) => profile.id === 'root'); // parses the sources now
 */
export function lazyList<Item>(build: () => Item[]): readonly Item[] {
  let built: Item[] | undefined;
  const list = (): Item[] => (built ??= build());
  const refuse = (): never => {
    throw new TypeError('A lazily built list is read-only.');
  };
  // An array target, so the list reads as an array; its one own property, `length`, matches the built list's.
  return new Proxy([] as Item[], {
    get: (_target, key) => Reflect.get(list(), key),
    has: (_target, key) => Reflect.has(list(), key),
    ownKeys: () => Reflect.ownKeys(list()),
    getOwnPropertyDescriptor: (_target, key) => Reflect.getOwnPropertyDescriptor(list(), key),
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
  });
}
