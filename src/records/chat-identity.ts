import { z } from 'zod/mini';
import { builtOnFirstUse } from '../built-on-first-use';

// In `zod/mini` (tree-shakes): the bridge content script parses the page's identity with these, each
// built on its first use (built-on-first-use.ts).

/**
 * How sure a run's identity is: `page` (the page names its chat and message: SillyTavern's ids, the
 * runner's `--conversation`), `url` (the page's address names the open chat, e.g. `#/chat/<id>`), or
 * `guessed` (a hash of the chat's opening: two chats that open alike cannot be told apart).
 */
export const identityBasisSchema = z.enum(['page', 'url', 'guessed']);
export type IdentityBasis = z.infer<typeof identityBasisSchema>;

/**
 * Which conversation and message a run belongs to. `historyKey` is the message key: a hash of the
 * user and assistant messages the page sent, so two runs with the same key answer the same message
 * (a swipe or a regenerate) and a new turn, whatever the page's shape, has a new one. `previousKey`
 * is the key the turn before this one had (the chat up to its last-but-one user message). `basis`
 * and `previousKey` are newer than the record: a stored run without them still loads (see
 * {@link identityBasis}).
 */
export const chatIdentitySchema = builtOnFirstUse(() => {
  const keySchema = z.string().check(z.minLength(1), z.maxLength(100));
  return z.strictObject({
    conversationId: z.string().check(z.minLength(1), z.maxLength(200)),
    messageIndex: z.optional(z.int().check(z.minimum(0), z.maximum(1_000_000))),
    swipeId: z.optional(z.int().check(z.minimum(0), z.maximum(100_000))),
    historyKey: keySchema,
    previousKey: z.optional(keySchema),
    basis: z.optional(identityBasisSchema),
  });
});
export type ChatIdentity = z.infer<ReturnType<typeof chatIdentitySchema>>;

/** What the page (or the runner) says about the conversation; the runtime adds the hashes. */
export const pageChatIdentitySchema = builtOnFirstUse(() =>
  z.strictObject({
    conversationId: z.string().check(z.minLength(1), z.maxLength(200)),
    messageIndex: z.optional(z.int().check(z.minimum(0), z.maximum(1_000_000))),
    swipeId: z.optional(z.int().check(z.minimum(0), z.maximum(100_000))),
    /** `url` when the page hook read the chat from the page's address; the page's own ids otherwise. */
    basis: z.optional(z.enum(['page', 'url'])),
  }),
);
export type PageChatIdentity = z.infer<ReturnType<typeof pageChatIdentitySchema>>;

/** The prefix of a conversation id the runtime made from a hash of the chat's opening. */
export const GUESSED_CONVERSATION_PREFIX = 'hash:';
/** The prefix of a conversation id read from the page's address. */
export const URL_CONVERSATION_PREFIX = 'url:';

/** How sure an identity is; a run stored before identities said so is read from its conversation id. */
export function identityBasis(chat: Pick<ChatIdentity, 'conversationId' | 'basis'>): IdentityBasis {
  if (chat.basis) return chat.basis;
  if (chat.conversationId.startsWith(GUESSED_CONVERSATION_PREFIX)) return 'guessed';
  return chat.conversationId.startsWith(URL_CONVERSATION_PREFIX) ? 'url' : 'page';
}
