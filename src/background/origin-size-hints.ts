import { browser } from 'wxt/browser';
import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import type { OriginSizeHint, OriginSizeHints } from './origin-storage-quota';

/** The `browser.storage.session` key prefix of each origin's kept figure. */
export const ORIGIN_SIZE_HINT_KEY_PREFIX = 'originStoredBytes:';

const hintSchema = lazySchema(() => z.object({ bytes: z.number().nonnegative(), newestRunId: z.string().max(200).optional() }));

/** The slice of `browser.storage` the figures need: the session area, which outlives a worker but not the browser. */
export interface SessionStorageArea {
  get(key: string): Promise<Record<string, unknown>>;
  set(items: Record<string, unknown>): Promise<void>;
  remove(key: string): Promise<void>;
}

/**
 * The quota's figures kept in `storage.session`: a new worker (most turns start on one) finds them
 * without reading the site's runs; a browser restart forgets them, and the first turn reads the runs
 * again. A figure that does not parse, or a browser without the session area, reads as none.
 *
 * @example
 * createOriginStorageQuota({ getStore, sizeHints: sessionSizeHints() });
 */
export function sessionSizeHints(area: () => SessionStorageArea = () => browser.storage.session): OriginSizeHints {
  return {
    async read(origin) {
      const key = ORIGIN_SIZE_HINT_KEY_PREFIX + origin;
      const parsed = hintSchema.safeParse((await area().get(key))[key]);
      return parsed.success ? (parsed.data satisfies OriginSizeHint) : undefined;
    },
    write: (origin, hint) => area().set({ [ORIGIN_SIZE_HINT_KEY_PREFIX + origin]: hint }),
    forget: (origin) => area().remove(ORIGIN_SIZE_HINT_KEY_PREFIX + origin),
  };
}
