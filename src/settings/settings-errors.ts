import type { z } from 'zod';
import { ConfigurationError } from '../errors';

/** One thing wrong with a settings document: where (`profiles[1].model.binding`) and what to do. */
export interface SettingsIssue {
  /** The field, written as in JavaScript: `profiles[1].model.binding`; empty for the whole document. */
  path: string;
  /** Names the field, says what is wrong and what to do. */
  message: string;
}

/** Writes a path the way a user reads it in their JSON: `profiles[1].tools.allow[0]`. */
export function formatSettingsPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/** Prefixes a message with the field it is about, or "The document" for the root. */
export function issueAt(path: readonly PropertyKey[], problem: string): SettingsIssue {
  const where = formatSettingsPath(path);
  return { path: where, message: `${where === '' ? 'The document' : where}: ${problem}` };
}

/** All issues as one readable text, one per line. */
export function describeSettingsIssues(issues: readonly SettingsIssue[]): string {
  return issues.map((issue) => issue.message).join('\n');
}

/** A ConfigurationError carrying the issues, for callers that throw rather than return. */
export function settingsInvalidError(issues: readonly SettingsIssue[]): ConfigurationError {
  return new ConfigurationError(
    'settings-invalid',
    `The settings document is not valid:\n${describeSettingsIssues(issues)}`,
  );
}

type ZodIssue = z.core.$ZodIssue;

/**
 * Turns zod's issues into messages that name the field, what is wrong and what to do.
 * `input` is the document that was parsed: it lets a message quote the value that was given.
 */
export function issuesFromZod(
  zodIssues: readonly ZodIssue[],
  options: { input: unknown; schema: z.ZodType; pathPrefix?: readonly PropertyKey[] },
): SettingsIssue[] {
  const prefix = options.pathPrefix ?? [];
  const issues: SettingsIssue[] = [];
  for (const zodIssue of zodIssues) {
    const path = zodIssue.path as PropertyKey[];
    if (zodIssue.code === 'unrecognized_keys') {
      const known = knownFieldsAt(options.schema, options.input, path);
      const hint = known.length > 0 ? ` (fields here: ${known.join(', ')})` : '';
      for (const key of zodIssue.keys) {
        issues.push(issueAt([...prefix, ...path, key], `unknown field; remove it or check its spelling${hint}.`));
      }
      continue;
    }
    issues.push(issueAt([...prefix, ...path], describeZodIssue(zodIssue, valueAt(options.input, path))));
  }
  return issues;
}

function describeZodIssue(zodIssue: ZodIssue, given: unknown): string {
  switch (zodIssue.code) {
    case 'invalid_type':
      if (given === undefined) return `is missing; add it (${article(zodIssue.expected)}).`;
      return `expected ${article(zodIssue.expected)} but got ${describeValue(given)}; write ${article(zodIssue.expected)} here.`;
    case 'invalid_value':
      return `${describeValue(given)} is not allowed; use one of ${zodIssue.values.map((value) => JSON.stringify(value)).join(', ')}.`;
    case 'invalid_union': {
      const options = 'options' in zodIssue && Array.isArray(zodIssue.options) ? zodIssue.options : undefined;
      if (options) {
        return `${describeValue(given)} is not a known value; use one of ${options.map((value) => JSON.stringify(value)).join(', ')}.`;
      }
      return `${describeValue(given)} does not match any accepted form; check it against docs/settings.md.`;
    }
    case 'too_small':
      if (zodIssue.origin === 'string' && Number(zodIssue.minimum) === 1) return 'is empty; write something here.';
      return `${describeValue(given)} is too small: ${limitText('at least', zodIssue.origin, zodIssue.minimum)}.`;
    case 'too_big':
      return `${describeValue(given)} is too big: ${limitText('at most', zodIssue.origin, zodIssue.maximum)}.`;
    case 'invalid_format':
      if (zodIssue.format === 'url') return `${describeValue(given)} is not an http(s) URL; write one such as "http://127.0.0.1:8080/v1".`;
      return `${describeValue(given)} has the wrong form: ${zodIssue.message}.`;
    default:
      return `${zodIssue.message}.`;
  }
}

function limitText(bound: string, origin: string, limit: number | bigint): string {
  if (origin === 'string') return `it must have ${bound} ${limit} characters`;
  if (origin === 'array') return `it must have ${bound} ${limit} items`;
  return `it must be ${bound} ${limit}`;
}

function article(typeName: string): string {
  return /^[aeiou]/.test(typeName) ? `an ${typeName}` : `a ${typeName}`;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** The value at a path inside a parsed JSON value, or undefined. */
export function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

interface SchemaDefinition {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  options?: z.ZodType[];
  discriminator?: string;
  values?: unknown[];
}

interface SchemaInternals {
  _zod: { def: SchemaDefinition; innerType?: SchemaInternals };
}

function definitionOf(schema: z.ZodType): SchemaDefinition {
  let current = schema as unknown as SchemaInternals;
  // A schema built on first use (`z.lazy`, docs/performance.md) reads as the schema it builds.
  while (current._zod.def.type === 'lazy' && current._zod.innerType) current = current._zod.innerType;
  return current._zod.def;
}

/** The field names an object accepts at `path`, for "fields here: …" hints; empty when unknown. */
function knownFieldsAt(schema: z.ZodType, input: unknown, path: readonly PropertyKey[]): string[] {
  let current: z.ZodType | undefined = schema;
  for (let depth = 0; current; ) {
    const definition = definitionOf(current);
    if (['default', 'optional', 'nullable', 'prefault'].includes(definition.type)) {
      current = definition.innerType;
    } else if (definition.type === 'union') {
      current = pickUnionOption(definition, valueAt(input, path.slice(0, depth)));
    } else if (depth === path.length) {
      return definition.type === 'object' && definition.shape ? Object.keys(definition.shape) : [];
    } else if (definition.type === 'object') {
      current = definition.shape?.[String(path[depth])];
      depth += 1;
    } else if (definition.type === 'array') {
      current = definition.element;
      depth += 1;
    } else {
      return [];
    }
  }
  return [];
}

function pickUnionOption(definition: SchemaDefinition, value: unknown): z.ZodType | undefined {
  const discriminator = definition.discriminator;
  if (!discriminator || value === null || typeof value !== 'object') return undefined;
  const wanted = (value as Record<string, unknown>)[discriminator];
  return definition.options?.find((option) => {
    const field = definitionOf(option).shape?.[discriminator];
    return field !== undefined && (definitionOf(field).values ?? []).includes(wanted);
  });
}
