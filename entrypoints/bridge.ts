// First: zod must be jitless before any schema is built (no eval-like code at run time).
import '../src/zod-jitless';
import { defineUnlistedScript } from 'wxt/utils/define-unlisted-script';
import { answerConnectionProfileRequest } from '../src/bridge/connection-profile-requests';
import { answerBetweenTurnsRequest } from '../src/bridge/between-turns-requests';
import { extensionApi } from '../src/bridge/extension-api';
import { acceptPageHookPorts, servePagePort, type ServedPage } from '../src/bridge/page-connection';
import type { RunPort } from '../src/bridge/chat-turn-relay';
import { readSiteEnabled } from '../src/bridge/site-state';
import { warmUpOnUserInput } from '../src/bridge/warm-up-on-input';
import { RUN_PORT_NAME } from '../src/messaging/run-port-messages';
import { WARM_UP_PORT_NAME } from '../src/messaging/warm-up-port';

/**
 * Isolated-world bridge between the page hook and the background. Registered with the page hook
 * (scripting.registerContentScripts). An unlisted script, not a content script: WXT's content-script
 * wrapper would bring webextension-polyfill and its context into every enabled page.
 */
export default defineUnlistedScript(() => {
  const site = readSiteEnabled(extensionApi.storage, location.origin);
  // The user typing or clicking starts the background, so the turn that follows does not wait for it.
  warmUpOnUserInput(window, { isSiteOn: () => site.isOn(), connect: () => extensionApi.runtime.connect({ name: WARM_UP_PORT_NAME }) });
  let profileQuery: ServedPage | undefined;
  acceptPageHookPorts(window, (port) => {
    profileQuery = servePagePort(port, {
      isSiteOn: () => site.isOn(),
      openRunPort: () => extensionApi.runtime.connect({ name: RUN_PORT_NAME }) as RunPort,
      describeLostBackground: () => extensionApi.i18n.getMessage('page_error_background_lost'),
      pageAddress: () => location.href,
    });
  });
  extensionApi.runtime.onMessage.addListener((message: unknown, _sender, sendResponse) => {
    const answer =
      answerConnectionProfileRequest(message, { isSiteOn: () => site.isOn(), query: () => profileQuery }) ??
      answerBetweenTurnsRequest(message, { isSiteOn: () => site.isOn(), page: () => profileQuery });
    void answer?.then(sendResponse);
    // Chrome keeps the channel open for an answer only when the listener returns true.
    return answer !== undefined;
  });
});
