/**
 * Size caps on what a page may hand over as one chat turn. In a module of their own, with no schema,
 * so the bridge content script can check a message's size without carrying the snapshot schema.
 */
export const SNAPSHOT_LIMITS = { maxMessages: 2_000, maxChars: 4_000_000 } as const;
