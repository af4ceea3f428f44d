import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { journalEventDataSchemas } from './journal-events';

/** Journal event types: kebab-case noun-verb, one per schema in `journal-events.ts`. */
export type JournalEventType = keyof typeof journalEventDataSchemas;
// Listing the types builds their schemas, so it waits for the first parse (docs/performance.md).
const eventTypes = () => Object.keys(journalEventDataSchemas) as [JournalEventType, ...JournalEventType[]];
export const journalEventTypeSchema = lazySchema(() => z.enum(eventTypes()));

/** What an event of type `T` carries, as read. */
export type JournalEventData<T extends JournalEventType> = z.output<(typeof journalEventDataSchemas)[T]>;
/** What a writer gives for an event of type `T` (defaults not yet applied). */
export type JournalEventDataInput<T extends JournalEventType> = z.input<(typeof journalEventDataSchemas)[T]>;

interface JournalEventOf<T extends JournalEventType> {
  runId: string;
  /** Counts from 1 within its run. */
  seq: number;
  time: number;
  type: T;
  invocationId?: string;
  taskId?: string;
  data: JournalEventData<T>;
}

/** One append-only journal entry; narrowing on `type` gives its data's fields. */
export type JournalEvent = { [T in JournalEventType]: JournalEventOf<T> }[JournalEventType];
/** A journal event of one type. */
export type JournalEventOfType<T extends JournalEventType> = Extract<JournalEvent, { type: T }>;

const eventOptions = () => eventTypes().map((type) =>
  z.object({
    runId: z.string(),
    seq: z.number().int().positive(),
    time: z.number(),
    type: z.literal(type),
    invocationId: z.string().optional(),
    taskId: z.string().optional(),
    data: (journalEventDataSchemas[type] as z.ZodType<Record<string, unknown>>).default({}),
  }),
);

/** Every journal event, a union discriminated on `type`: written through it and read through it. */
type EventOption = ReturnType<typeof eventOptions>[number];
export const journalEventSchema = lazySchema(() => z.discriminatedUnion('type', eventOptions() as unknown as [EventOption, ...EventOption[]])) as unknown as z.ZodType<
  JournalEvent,
  unknown
>;
