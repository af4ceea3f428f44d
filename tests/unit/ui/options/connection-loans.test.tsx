// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/preact';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { decideConnectionLoan, readSiteLending } from '../../../../src/settings/connection-lending';
import { PRIVATE_DATABASE_NAME } from '../../../../src/settings/private-database';
import { loadSettings, saveSettings } from '../../../../src/settings/settings-store';
import { ConnectionLoansSection } from '../../../../src/ui/options/connection-loans-section';
import { createOptionsTestState, type OptionsTestState } from '../../../support/options-test-state';

const REMOTE = 'https://chat.example.com';
const LOOPBACK = 'http://127.0.0.1:8000';
let recorded: OptionsTestState;

beforeEach(async () => {
  recorded = createOptionsTestState();
  await deleteDB(PRIVATE_DATABASE_NAME);
  await saveSettings({
    version: 1,
    connections: [
      { id: 'paid', label: 'Paid', baseURL: 'https://api.example.com/v1', apiKey: 'sk-paid', defaultModel: 'm' },
      { id: 'free', label: 'Free', baseURL: 'http://127.0.0.1:8080/v1', defaultModel: 'm' },
    ],
    sites: [{ origin: REMOTE }, { origin: LOOPBACK }],
  });
  const stored = await loadSettings();
  await waitFor(() => expect(recorded.state.settings.value).toEqual(stored));
});
afterEach(() => {
  cleanup();
  recorded.state.dispose();
});

it('lists the keyed connections each site may use (a loopback site from the start) and revokes one', async () => {
  await decideConnectionLoan({ origin: REMOTE, connectionId: 'paid', decision: 'allowed' });
  render(<ConnectionLoansSection state={recorded.state} />);

  const list = await screen.findByRole('list', { name: 'Keyed connections sites may use' });
  await waitFor(() => expect(within(list).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
    expect.stringContaining(`${REMOTE}Paid`),
    expect.stringContaining(`${LOOPBACK}Paid`),
  ]));
  expect(list.textContent).not.toContain('Free');

  fireEvent.click(within(list).getByRole('button', { name: `Revoke Paid for ${LOOPBACK}` }));

  await waitFor(async () => expect((await readSiteLending(LOOPBACK)).mayUse('paid')).toBe(false));
  await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
  expect((await readSiteLending(REMOTE)).mayUse('paid')).toBe(true);
});
