/**
 * Agent profiles as Markdown files with YAML front matter: the sub-agent format Claude Code made
 * common (`name`, `description`, `tools`, `model`, then the system prompt as the body). Retinue's own
 * fields ride in an optional `retinue:` block, so a file exported here imports back to the same profile.
 */
import matter from '@11ty/gray-matter';
import { z } from 'zod';
import { toProviderToolName } from '../model/tool-protocol';
import { checkProfileReferences, knownAgentIds } from './document-checks';
import { profileSchema, samplingSchema, type AgentProfile, type Settings } from './schema';
import { issuesFromZod, type SettingsIssue } from './settings-errors';
import { allowableToolNames, type AllowableToolName } from './tool-names';
import { trimEdgesOf } from '../text-edges';

/** The tools an agent file gets when it names none: what the built-in helpers use. */
export const DEFAULT_AGENT_FILE_TOOLS: AllowableToolName[] = ['chat.read', 'workspace.list', 'workspace.read', 'workspace.write'];

/** Claude Code's model value meaning "the caller's model": Retinue's `host` binding without an override. */
const INHERIT_MODEL = 'inherit';

const toolListSchema = z.union([z.string().max(4_000), z.array(z.string().max(200)).max(100), z.null()]);

/** The front matter this reader understands; other keys (Claude Code's `color`, ...) are ignored. */
const frontMatterSchema = z.object({
  name: z.string().min(1).max(100),
  description: z.string().min(1).max(2_000),
  tools: toolListSchema.optional(),
  model: z.string().min(1).max(200).optional(),
  retinue: z
    .strictObject({
      /** The display name, when it is not the file's `name`. */
      name: z.string().min(1).max(100).optional(),
      /** Run on this connection (its model: the front matter's `model`, else the connection's default). */
      connection: z.string().min(1).max(64).optional(),
      /** Run on this SillyTavern connection profile, by its name there. */
      hostProfile: z.string().min(1).max(100).optional(),
      sampling: samplingSchema.optional(),
      budget: profileSchema.unwrap().shape.budget.optional(),
      delegation: profileSchema.unwrap().shape.delegation.optional(),
      context: profileSchema.unwrap().shape.context.optional(),
      review: profileSchema.unwrap().shape.review.optional(),
      /** When it runs: "when asked", "every turn", "every N turns", "after the reply", "on demand". */
      runs: profileSchema.unwrap().shape.runs.optional(),
    })
    .optional(),
});
type FrontMatter = z.infer<typeof frontMatterSchema>;

export type AgentFileImport =
  | {
      ok: true;
      profile: AgentProfile;
      /** Things the user should know: tool names Retinue does not have (ignored), a Claude model alias. */
      notes: string[];
    }
  | { ok: false; errors: SettingsIssue[] };

/**
 * Reads one agent file into a profile. Errors name the file and, where it can be told, the line.
 *
 * @example
 * const result = importAgentMarkdown('critic.md', '---\nname: critic\ndescription: Finds weak scenes.\n---\nYou are a critic.');
 * if (result.ok) settings.profiles.push(result.profile);
 */
export function importAgentMarkdown(fileName: string, text: string): AgentFileImport {
  const fail = (message: string, line?: number): AgentFileImport => ({
    ok: false,
    errors: [{ path: '', message: `${fileName}${line ? `, line ${line}` : ''}: ${message}` }],
  });
  if (!/^\uFEFF?---\r?\n/.test(text)) {
    return fail('an agent file starts with a front matter block: a line "---", then name and description, then "---" and the prompt.', 1);
  }
  let parsed: ReturnType<typeof matter>;
  try {
    // A fresh options object each time: without one the package returns a cached result per text.
    parsed = matter(text, {});
  } catch (error) {
    const mark = (error as { mark?: { line?: number } }).mark;
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    // The front matter starts on line 2; js-yaml counts its lines from 0.
    return fail(`the front matter is not valid YAML (${reason}).`, mark?.line !== undefined ? mark.line + 2 : undefined);
  }
  const front = frontMatterSchema.safeParse(parsed.data);
  if (!front.success) {
    return {
      ok: false,
      errors: issuesFromZod(front.error.issues, { input: parsed.data, schema: frontMatterSchema }).map((issue) => {
        const line = lineOfKey(text, issue.path.split(/[.[]/)[0] ?? '');
        return { ...issue, message: `${fileName}${line ? `, line ${line}` : ''}: ${issue.message}` };
      }),
    };
  }
  const { tools, unknownTools } = readTools(front.data.tools);
  const notes = unknownTools.length > 0
    ? [`${fileName}: Retinue has no tool${unknownTools.length > 1 ? 's' : ''} ${unknownTools.join(', ')}; ignored. Its tools: ${allowableToolNames.join(', ')}.`]
    : [];
  if (front.data.model && ['sonnet', 'opus', 'haiku'].includes(front.data.model)) {
    notes.push(`${fileName}: model '${front.data.model}' is a Claude Code alias; Retinue asks the endpoint for a model of that exact name. Change it if your endpoint names its models otherwise.`);
  }
  const candidate = profileFrom(front.data, tools, parsed.content);
  const profile = profileSchema.safeParse(candidate);
  if (!profile.success) {
    return {
      ok: false,
      errors: issuesFromZod(profile.error.issues, { input: candidate, schema: profileSchema }).map((issue) => ({
        ...issue,
        message: `${fileName}: ${issue.message}`,
      })),
    };
  }
  return { ok: true, profile: profile.data, notes };
}

/** A profile id from an agent file's name: lowercase letters, digits and dashes. */
export function agentIdFromName(name: string): string {
  const id = trimEdgesOf(name.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-'), '-').slice(0, 64);
  return id === '' ? 'agent' : id;
}

function profileFrom(front: FrontMatter, tools: AllowableToolName[], body: string): Record<string, unknown> {
  const retinue = front.retinue ?? {};
  const overrideModel = front.model && front.model !== INHERIT_MODEL ? front.model : undefined;
  const sampling = retinue.sampling ? { sampling: retinue.sampling } : {};
  const model = retinue.hostProfile
    ? { binding: 'hostProfile', profileName: retinue.hostProfile, ...sampling }
    : retinue.connection
    ? { binding: 'connection', connectionId: retinue.connection, ...(overrideModel ? { model: overrideModel } : {}), ...(retinue.sampling ? { sampling: retinue.sampling } : {}) }
    : { binding: 'host', ...(overrideModel ? { model: overrideModel } : {}), ...(retinue.sampling ? { sampling: retinue.sampling } : {}) };
  return {
    id: agentIdFromName(front.name),
    name: retinue.name ?? front.name,
    description: front.description,
    systemPrompt: body.trim(),
    model,
    tools: { allow: tools },
    ...(retinue.delegation ? { delegation: retinue.delegation } : {}),
    ...(retinue.budget ? { budget: retinue.budget } : {}),
    ...(retinue.context ? { context: retinue.context } : {}),
    ...(retinue.review ? { review: retinue.review } : {}),
    ...(retinue.runs ? { runs: retinue.runs } : {}),
  };
}

/** Tool names as written (`Read, Grep` or a YAML list), sorted into Retinue's tools and the rest. */
function readTools(value: FrontMatter['tools']): { tools: AllowableToolName[]; unknownTools: string[] } {
  if (value === undefined) return { tools: [...DEFAULT_AGENT_FILE_TOOLS], unknownTools: [] };
  const names = (value === null ? [] : Array.isArray(value) ? value : value.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const tools: AllowableToolName[] = [];
  const unknownTools: string[] = [];
  for (const name of names) {
    const tool = allowableToolNames.find((candidate) => candidate === name || toProviderToolName(candidate) === name);
    if (tool) {
      if (!tools.includes(tool)) tools.push(tool);
    } else if (!unknownTools.includes(name)) {
      unknownTools.push(name);
    }
  }
  return { tools, unknownTools };
}

/** The 1-based line of a top-level front matter key, to point an error at. */
function lineOfKey(text: string, key: string): number | undefined {
  if (key === '') return undefined;
  const lines = text.split(/\r?\n/);
  const index = lines.findIndex((line, position) => position > 0 && line.startsWith(`${key}:`));
  return index >= 0 ? index + 1 : undefined;
}

/**
 * A profile as an agent file. `name` is the profile id (Claude Code's naming rule), `tools` lists
 * Retinue's tool names, `model` the model override or the connection's model; everything else that
 * is not the default goes in the `retinue:` block, so importing the file gives the same profile.
 *
 * @example
 * download(`${profile.id}.md`, exportAgentMarkdown(profile));
 */
export function exportAgentMarkdown(profile: AgentProfile): string {
  const front: Record<string, unknown> = {
    name: profile.id,
    description: profile.description,
    tools: profile.tools.allow.join(', '),
  };
  if (profile.model.binding !== 'hostProfile' && profile.model.model) front.model = profile.model.model;
  const retinue: Record<string, unknown> = {};
  if (profile.name !== profile.id) retinue.name = profile.name;
  if (profile.model.binding === 'connection') retinue.connection = profile.model.connectionId;
  if (profile.model.binding === 'hostProfile') retinue.hostProfile = profile.model.profileName;
  if (profile.model.sampling) retinue.sampling = profile.model.sampling;
  retinue.budget = profile.budget;
  retinue.delegation = profile.delegation;
  retinue.context = profile.context;
  if (profile.review !== 'none') retinue.review = profile.review;
  if (profile.runs !== 'when asked') retinue.runs = profile.runs;
  front.retinue = retinue;
  return matter.stringify(`${profile.systemPrompt}\n`, front);
}

/** An agent file as read from disk or a drop: its name and text. */
export interface AgentFile {
  name: string;
  text: string;
}

export interface AgentFilesImport {
  /** The document with every file that imported put in (same id replaced, else added). */
  settings: Settings;
  imported: AgentProfile[];
  notes: string[];
  /** Files that did not import, each message naming its file (and line where it can). */
  errors: SettingsIssue[];
}

/**
 * Reads many agent files into `current`: each good file's profile replaces the document profile of
 * its id or is added (a built-in's id makes it an override); a bad file is reported and skipped, so
 * one broken file does not cost the others. Nothing is stored: save `settings` when `imported` is
 * not empty.
 *
 * @example
 * const result = importAgentFiles(await Promise.all([...input.files].map(async (file) => ({ name: file.name, text: await file.text() }))), settings);
 */
export function importAgentFiles(files: readonly AgentFile[], current: Settings): AgentFilesImport {
  const results = files.map((file) => ({ file, result: importAgentMarkdown(file.name, file.text) }));
  // Files may name each other in `allowedAgents`: every good file's id counts as known.
  const incomingIds = results.flatMap(({ result }) => (result.ok ? [result.profile.id] : []));
  let settings = current;
  const imported: AgentProfile[] = [];
  const notes: string[] = [];
  const errors: SettingsIssue[] = [];
  for (const { file, result } of results) {
    if (!result.ok) {
      errors.push(...result.errors);
      continue;
    }
    const { profile } = result;
    const referenceIssues = checkProfileReferences(profile, {
      connectionIds: current.connections.map((connection) => connection.id),
      agentIds: [...knownAgentIds(current), ...incomingIds],
      path: [],
    });
    if (referenceIssues.length > 0) {
      errors.push(...referenceIssues.map((issue) => ({ ...issue, message: `${file.name}: ${issue.message}` })));
      continue;
    }
    const replaced = settings.profiles.some((existing) => existing.id === profile.id);
    const profiles = replaced ? settings.profiles.map((existing) => (existing.id === profile.id ? profile : existing)) : [...settings.profiles, profile];
    settings = { ...settings, profiles };
    imported.push(profile);
    notes.push(...result.notes);
  }
  return { settings, imported, notes, errors };
}
