import type { RunServicePort } from '../../../src/background/run-port-handler';
import { acceptPageHookPorts, servePagePort } from '../../../src/bridge/page-connection';
import { installPageHook } from '../../../src/page-hook/install-page-hook';
import type { FakePageWindow } from '../../support/fake-page-window';
import { createPortPair } from '../../support/in-memory-run-ports';

export type PortPair = ReturnType<typeof createPortPair>;

/**
 * Installs the real page hook on a fake page window and serves its ports with the real bridge,
 * handing each run port's background end to the run service's listeners (as `runtime.onConnect`
 * would). `onPair` sees every port pair, for tests that disconnect one.
 */
export function wirePageToBackground(page: FakePageWindow, listeners: ReadonlyArray<(port: RunServicePort) => void>, onPair?: (pair: PortPair) => void): void {
  installPageHook(page as unknown as Window & typeof globalThis);
  acceptPageHookPorts(page as unknown as Window, (port) =>
    servePagePort(port, {
      isSiteOn: async () => true,
      openRunPort: () => {
        const pair = createPortPair({ url: page.location.href, tab: { id: 1 } });
        onPair?.(pair);
        listeners.forEach((listener) => listener(pair.backgroundEnd));
        return pair.bridgeEnd;
      },
      describeLostBackground: () => 'Retinue stopped.',
      pageAddress: () => page.location.href,
    }),
  );
}
