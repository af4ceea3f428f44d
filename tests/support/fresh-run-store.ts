import { cleanup } from '@testing-library/preact';
import { afterEach, beforeEach } from 'vitest';
import { openRunStore } from '../../src/store/idb-run-store';
import type { RunStore } from '../../src/store/run-store';
import { uniqueDatabaseName } from './record-builders';

/**
 * For component tests: a run store of its own for each test of the calling `describe`, closed after
 * the test once the rendered tree is cleaned up. Read `current` inside a test.
 *
 * @example
 * const store = freshRunStorePerTest();
 * it('…', () => render(<TaskList tasks={[]} store={store.current} now={0} onCancel={() => undefined} />));
 */
export function freshRunStorePerTest(): { readonly current: RunStore } {
  let current: RunStore | undefined;
  beforeEach(async () => {
    current = await openRunStore({ name: uniqueDatabaseName() });
  });
  afterEach(() => {
    cleanup();
    current?.close();
  });
  return {
    get current(): RunStore {
      if (!current) throw new Error('freshRunStorePerTest: the store is open only inside a test');
      return current;
    },
  };
}
