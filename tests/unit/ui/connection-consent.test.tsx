// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { deleteDB } from 'idb';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { recordPageNotice } from '../../../src/background/page-notices';
import { addKeyedSpend, readSiteLending } from '../../../src/settings/connection-lending';
import { PRIVATE_DATABASE_NAME } from '../../../src/settings/private-database';
import { KeyedSpendLine } from '../../../src/ui/side-panel/keyed-spend-line';
import { PageNoticeLines } from '../../../src/ui/side-panel/page-notice-lines';
import { installEnglishMessages } from '../../support/english-messages';

const SITE = 'https://chat.example.com';
const consent = { code: 'connection-consent:paid', messageKey: 'page_notice_connection_consent', substitutions: ['Critic', 'Paid'] };

beforeEach(async () => {
  fakeBrowser.reset();
  await deleteDB(PRIVATE_DATABASE_NAME);
  installEnglishMessages();
});
afterEach(cleanup);

it('asks once in the side panel to lend a keyed connection to the site; Allow lends it there and clears the question', async () => {
  await recordPageNotice(SITE, consent, 1_000);
  render(<PageNoticeLines origin={SITE} />);

  expect(await screen.findByText(/Critic is set to use Paid, which carries your API key/)).toBeTruthy();
  expect((await readSiteLending(SITE)).mayUse('paid')).toBe(false);
  fireEvent.click(screen.getByRole('button', { name: 'Allow on this site' }));

  await waitFor(async () => expect((await readSiteLending(SITE)).mayUse('paid')).toBe(true));
  await waitFor(() => expect(screen.queryByText(/Critic is set to use Paid/)).toBeNull());
  expect((await readSiteLending('https://other.example.org')).mayUse('paid')).toBe(false);
});

it('other notices get no Allow button', async () => {
  await recordPageNotice(SITE, { code: 'unsupported-source', messageKey: 'page_notice_unsupported_source', substitutions: ['claude'] }, 1_000);
  render(<PageNoticeLines origin={SITE} />);

  await screen.findByText(/claude/);
  expect(screen.queryByRole('button', { name: 'Allow on this site' })).toBeNull();
});

it("shows the site's spend of keyed connections today against its budget", async () => {
  await addKeyedSpend(SITE, 12_345);
  render(<KeyedSpendLine origin={SITE} />);

  expect(await screen.findByText(/12,345 of 200,000 tokens/)).toBeTruthy();
});

it('shows no spend line for a site that spent nothing today', async () => {
  const { container } = render(<KeyedSpendLine origin={SITE} />);
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(container.textContent).toBe('');
});
