import { browser } from 'wxt/browser';
import { connectionProfilesAnswerSchema, type CompletionPresetSummary, type ConnectionProfileSummaryMessage } from '../../messaging/connection-profile-messages';
import type { Settings } from '../../settings/schema';

/** What the options page learned about the open SillyTavern page's connection profiles. */
export type PageConnectionProfiles =
  | { kind: 'profiles'; origin: string; profiles: ConnectionProfileSummaryMessage[]; presets: CompletionPresetSummary[] }
  /** An open page of an enabled site answered, but it has no Connection Manager. */
  | { kind: 'no-connection-manager'; origin: string }
  /** No tab of an enabled site is open, or none answered. */
  | { kind: 'no-page' };

/** The slice of `browser.tabs` this needs (tests give their own). */
export interface TabsAccess {
  query(filter: Record<string, never>): Promise<Array<{ id?: number; url?: string }>>;
  sendMessage(tabId: number, message: unknown): Promise<unknown>;
}

/** Sites whose pages may be SillyTavern: switched on, adapter `auto` or `sillytavern`. */
function candidateOrigins(settings: Settings): string[] {
  return settings.sites.filter((site) => site.enabled && site.adapter !== 'openai-chat').map((site) => site.origin);
}

function originOf(url: string | undefined): string | undefined {
  try {
    return url ? new URL(url).origin : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Asks the open tabs of enabled sites, through Retinue's bridge in each, for their SillyTavern
 * connection profiles; the first page that has a Connection Manager answers. Every answer is checked
 * with zod: a page is untrusted.
 *
 * @example
 * const listing = await readPageConnectionProfiles(settings);
 * if (listing.kind === 'profiles') show(listing.profiles.map((profile) => profile.name));
 */
export async function readPageConnectionProfiles(settings: Settings, tabs: TabsAccess = browser.tabs as unknown as TabsAccess): Promise<PageConnectionProfiles> {
  const origins = candidateOrigins(settings);
  const open = (await tabs.query({})).filter((tab) => tab.id !== undefined && origins.includes(originOf(tab.url) ?? ''));
  let withoutManager: string | undefined;
  for (const tab of open) {
    const origin = originOf(tab.url) as string;
    const raw = await tabs.sendMessage(tab.id as number, { type: 'connection-profiles-request' }).catch(() => undefined);
    const answer = connectionProfilesAnswerSchema().safeParse(raw);
    if (!answer.success) continue;
    if (answer.data.kind === 'profiles') return { kind: 'profiles', origin, profiles: answer.data.profiles, presets: answer.data.presets ?? [] };
    if (answer.data.kind === 'no-connection-manager') withoutManager ??= origin;
  }
  return withoutManager ? { kind: 'no-connection-manager', origin: withoutManager } : { kind: 'no-page' };
}
