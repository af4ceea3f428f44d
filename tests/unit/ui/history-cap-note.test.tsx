// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/preact';
import { afterEach, beforeAll, expect, test } from 'vitest';
import type { JournalEvent } from '../../../src/records/journal';
import { CostLine } from '../../../src/ui/side-panel/cost-line';
import { buildRun } from '../../support/record-builders';
import { installEnglishMessages } from '../../support/english-messages';

beforeAll(installEnglishMessages);
afterEach(cleanup);

const capEvent: JournalEvent = { runId: 'run-1', seq: 1, time: 1, type: 'history-cap-reached', data: { cap: 16 * 1024 * 1024, historyBytes: 17 * 1024 * 1024 } };

test('the side panel says a run stopped at the size its history may have', () => {
  render(<CostLine run={buildRun({ createdAt: 0, endedAt: 5_000 })} journal={[capEvent]} now={0} />);
  expect(document.querySelector('.cost-line')?.textContent ?? document.body.textContent).toContain(
    'History size limit reached: 17.0 MB of 16.0 MB. No new tasks were started; running tasks wrapped up and the root wrote the reply.',
  );
});

test('and says nothing of it in a run that stayed within it', () => {
  render(<CostLine run={buildRun({ createdAt: 0, endedAt: 5_000 })} journal={[]} now={0} />);
  expect(document.body.textContent).not.toContain('History size limit');
});
