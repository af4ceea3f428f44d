import { evaluateIn, type EvaluatingHandle } from './evaluating-handle';

/** What each stranger received from the bridge on the port it offered: nothing, when the bridge is right. */
export type StrangerReports = Record<string, string[]>;

/**
 * In the chat page (an enabled site): brings in the windows that are not the page's own document and
 * lets each post the page hook's connect message with its own port and a chat turn
 * (tests/fixtures/strangers/stranger.js): a frame of another origin, a sandboxed `srcdoc` frame (origin
 * `null`), a popup of another origin that posts to its opener, and the page itself connecting a second
 * time. Resolves once all of them have posted.
 */
export function inviteStrangers(page: EvaluatingHandle, strangerOrigin: string): Promise<void> {
  return evaluateIn(
    page,
    async (origin: string) => {
      const names = ['frame', 'srcdoc', 'popup', 'page-again'];
      const posted = new Set<string>();
      const allPosted = new Promise<void>((resolve, reject) => {
        window.addEventListener('message', (event: MessageEvent) => {
          const data = event.data as { stranger?: string; posted?: boolean } | null;
          if (data?.posted && data.stranger) posted.add(data.stranger);
          if (posted.size === names.length) resolve();
        });
        setTimeout(() => reject(new Error(`only ${[...posted].join(', ') || 'none'} of the strangers posted`)), 20_000);
      });
      const frame = document.createElement('iframe');
      frame.src = `${origin}/strangers/?name=frame`;
      document.body.append(frame);
      const sandboxed = document.createElement('iframe');
      sandboxed.setAttribute('sandbox', 'allow-scripts');
      sandboxed.name = 'srcdoc';
      sandboxed.srcdoc = '<script src="/strangers/stranger.js"></script>';
      document.body.append(sandboxed);
      const popup = window.open(`${origin}/strangers/?name=popup`, 'retinue-stranger-popup');
      // The page's own document once more: the hook has connected already, so this one gets nothing either.
      const seen: string[] = [];
      const channel = new MessageChannel();
      channel.port1.onmessage = (event) => seen.push(String(event.data));
      window.postMessage('retinue-page-hook:connect', location.origin, [channel.port2]);
      channel.port1.postMessage(
        JSON.stringify({ type: 'run-start', requestId: 'page-again', adapter: 'openai-chat', body: { stream: false, messages: [{ role: 'user', content: 'Again' }] } }),
      );
      const self = { postMessage: () => window.postMessage({ stranger: 'page-again', seen }, location.origin) };
      (window as unknown as { retinueStrangers: unknown }).retinueStrangers = { frame: frame.contentWindow, srcdoc: sandboxed.contentWindow, popup, self };
      window.postMessage({ stranger: 'page-again', posted: true }, location.origin);
      await allPosted;
    },
    strangerOrigin,
  );
}

/** Asks every stranger what the bridge sent it, and closes the popup. */
export function strangerReports(page: EvaluatingHandle): Promise<StrangerReports> {
  return evaluateIn(
    page,
    async () => {
      const strangers = (window as unknown as { retinueStrangers: Record<string, { postMessage(message: unknown, origin: string): void; close?(): void }> })
        .retinueStrangers;
      const reports: Record<string, string[]> = {};
      await new Promise<void>((resolve, reject) => {
        window.addEventListener('message', (event: MessageEvent) => {
          const data = event.data as { stranger?: string; seen?: string[] } | null;
          if (data?.stranger && Array.isArray(data.seen)) reports[data.stranger] = data.seen;
          if (Object.keys(reports).length === Object.keys(strangers).length) resolve();
        });
        setTimeout(() => reject(new Error(`only ${Object.keys(reports).join(', ') || 'none'} of the strangers answered`)), 20_000);
        for (const stranger of Object.values(strangers)) stranger.postMessage('stranger:report?', '*');
      });
      strangers.popup?.close?.();
      return reports;
    },
    undefined,
  );
}
