// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/preact';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { browser } from 'wxt/browser';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { PAGE_NOTICES_KEY, recordPageNotice } from '../../../src/background/page-notices';
import { PageNoticeLines } from '../../../src/ui/side-panel/page-notice-lines';
import { installEnglishMessages } from '../../support/english-messages';

const SITE = 'http://127.0.0.1:8000';
const OTHER_SITE = 'http://localhost:9000';
const unsupported = (source: string) => ({ code: 'unsupported-source', messageKey: 'page_notice_unsupported_source', substitutions: [source] });

beforeEach(() => {
  fakeBrowser.reset();
  installEnglishMessages();
});
beforeAll(installEnglishMessages);
afterEach(cleanup);

describe('PageNoticeLines', () => {
  it("shows the current site's notices in words, newest first, and none of another site's", async () => {
    await recordPageNotice(SITE, unsupported('claude'), 1_000);
    await recordPageNotice(OTHER_SITE, unsupported('cohere'), 2_000);
    await recordPageNotice(SITE, unsupported('makersuite'), 3_000);

    render(<PageNoticeLines origin={SITE} />);

    const region = await screen.findByRole('region', { name: 'Notices about this site' });
    const lines = await waitFor(() => {
      const found = region.querySelectorAll('.page-notice');
      expect(found).toHaveLength(2);
      return [...found].map((line) => line.textContent ?? '');
    });
    expect(lines[0]).toContain('SillyTavern is set to the source "makersuite"');
    expect(lines[1]).toContain('SillyTavern is set to the source "claude"');
    expect(region.textContent).not.toContain('cohere');
  });

  it('shows a notice the moment the background records it', async () => {
    render(<PageNoticeLines origin={SITE} />);
    expect(screen.queryByRole('region', { name: 'Notices about this site' })).toBeNull();

    await recordPageNotice(SITE, unsupported('claude'), 1_000);

    expect(await screen.findByText(/SillyTavern is set to the source "claude"/)).toBeTruthy();
  });

  it('a dismissed notice goes away and stays away', async () => {
    await recordPageNotice(SITE, unsupported('claude'), 1_000);
    await recordPageNotice(SITE, unsupported('makersuite'), 2_000);
    render(<PageNoticeLines origin={SITE} />);
    await screen.findByText(/"claude"/);

    const [newestDismiss] = screen.getAllByRole('button', { name: 'Dismiss this notice' });
    fireEvent.click(newestDismiss as HTMLElement);

    await waitFor(() => expect(screen.queryByText(/"makersuite"/)).toBeNull());
    expect(screen.getByText(/"claude"/)).toBeTruthy();
    const stored = (await browser.storage.session.get(PAGE_NOTICES_KEY))[PAGE_NOTICES_KEY] as { substitutions: string[] }[];
    expect(stored.map((notice) => notice.substitutions[0])).toEqual(['claude']);
  });

  it('leaves out stored entries that are not notices, and shows nothing when the panel does not know the site', async () => {
    const valid = { origin: SITE, code: 'unsupported-source', messageKey: 'page_notice_unsupported_source', substitutions: ['claude'], message: 'A readable notice.', time: 1 };
    await browser.storage.session.set({ [PAGE_NOTICES_KEY]: [{ origin: SITE, message: 42 }, 'junk', valid] });
    render(<PageNoticeLines origin={SITE} />);
    const region = await screen.findByRole('region', { name: 'Notices about this site' });
    expect(region.querySelectorAll('.page-notice')).toHaveLength(1);
    expect(region.textContent).toContain('A readable notice.');
    cleanup();

    const { container } = render(<PageNoticeLines origin={undefined} />);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(container.textContent).toBe('');
  });
});
