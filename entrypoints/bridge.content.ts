// First: zod must be jitless before any schema is built (no eval-like code at run time).
import '../src/zod-jitless';
import { browser } from 'wxt/browser';
import { defineContentScript } from 'wxt/utils/define-content-script';
import { answerConnectionProfileRequest } from '../src/bridge/connection-profile-requests';
import { acceptPageHookPorts, servePagePort, type ServedPage } from '../src/bridge/page-connection';
import { answerBetweenTurnsRequest } from '../src/bridge/between-turns-requests';
import type { RunPort } from '../src/bridge/chat-turn-relay';
import { readSiteEnabled } from '../src/bridge/site-state';
import { RUN_PORT_NAME } from '../src/messaging/run-port-messages';

/** Isolated-world bridge between the page hook and the background. Registered with the page hook. */
export default defineContentScript({
  matches: ['http://127.0.0.1/*'],
  runAt: 'document_start',
  registration: 'runtime',
  main() {
    const site = readSiteEnabled(browser.storage, location.origin);
    let profileQuery: ServedPage | undefined;
    acceptPageHookPorts(window, (port) => {
      profileQuery = servePagePort(port, {
        isSiteOn: () => site.isOn(),
        openRunPort: () => browser.runtime.connect({ name: RUN_PORT_NAME }) as RunPort,
        describeLostBackground: () => browser.i18n.getMessage('page_error_background_lost'),
      });
    });
    browser.runtime.onMessage.addListener((message: unknown) => answerConnectionProfileRequest(message, { isSiteOn: () => site.isOn(), query: () => profileQuery }));
    browser.runtime.onMessage.addListener((message: unknown) => answerBetweenTurnsRequest(message, { isSiteOn: () => site.isOn(), page: () => profileQuery }));
  },
});
