import type { HostAdapterId } from './chat-turn-request';
import type { PromptSnapshot } from './prompt-snapshot';

/** A notice for the side panel when the page's turn went past Retinue for a reason the user can fix. */
export interface HostNotice {
  /** A stable code the side panel can group by, e.g. `unsupported-source`. */
  code: string;
  /** The i18n message key (`page_notice_...`) and its substitutions. */
  messageKey: string;
  substitutions: string[];
}

/** What an adapter makes of a chat turn the page hook handed over. */
export type HostRequestReading =
  | { kind: 'run'; snapshot: PromptSnapshot; stream: boolean }
  | { kind: 'pass-through'; notice: HostNotice };

/**
 * The extension-side half of a host adapter (the MAIN-world half is its `chat-turn.ts`): reads a
 * chat turn into a prompt snapshot, or decides the page's request should go to its server untouched.
 * Answers are written by the OpenAI response writer, which every shipped host reads.
 */
export interface HostAdapter {
  id: HostAdapterId;
  /** Throws a ConfigurationError when the body is not a chat-completions request Retinue can read. */
  readRequest(body: unknown): HostRequestReading;
}
