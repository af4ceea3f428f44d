import { z } from 'zod';

/**
 * Which conversation and message a run belongs to. On SillyTavern the page hook reads the chat id,
 * message index and swipe id from the page at the time of the request; elsewhere the conversation
 * is a hash of its first messages. `historyKey` is a hash of the history up to the last user
 * message: two runs with the same key answer the same message (a swipe or a regenerate).
 */
export const chatIdentitySchema = z.strictObject({
  conversationId: z.string().min(1).max(200),
  messageIndex: z.number().int().min(0).max(1_000_000).optional(),
  swipeId: z.number().int().min(0).max(100_000).optional(),
  historyKey: z.string().min(1).max(100),
});
export type ChatIdentity = z.infer<typeof chatIdentitySchema>;

/** What the page (or the runner) says about the conversation; the runtime adds the hashes. */
export const pageChatIdentitySchema = z.strictObject({
  conversationId: z.string().min(1).max(200),
  messageIndex: z.number().int().min(0).max(1_000_000).optional(),
  swipeId: z.number().int().min(0).max(100_000).optional(),
});
export type PageChatIdentity = z.infer<typeof pageChatIdentitySchema>;
