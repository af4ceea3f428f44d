import { describe, expect, it } from 'vitest';
import type { PanelToBackground } from '../../../src/messaging/panel-messages';
import type { JournalEvent } from '../../../src/records/journal';
import { connectPanel, type PanelSidePort } from '../../../src/ui/side-panel/panel-connection';

function fakePort() {
  const messageListeners: Array<(message: unknown) => void> = [];
  const disconnectListeners: Array<() => void> = [];
  const port: PanelSidePort & { sent: PanelToBackground[]; deliver(message: unknown): void; drop(): void; disconnected: boolean } = {
    sent: [],
    disconnected: false,
    postMessage(message) {
      if (port.disconnected) throw new Error('Attempting to use a disconnected port object');
      port.sent.push(message);
    },
    onMessage: { addListener: (listener) => void messageListeners.push(listener) },
    onDisconnect: { addListener: (listener) => void disconnectListeners.push(listener) },
    disconnect: () => void (port.disconnected = true),
    deliver: (message) => messageListeners.forEach((listener) => listener(message)),
    drop() {
      port.disconnected = true;
      disconnectListeners.forEach((listener) => listener());
    },
  };
  return port;
}

function harness() {
  const ports: Array<ReturnType<typeof fakePort>> = [];
  const broadcastListeners: Array<(message: unknown) => void> = [];
  const connection = connectPanel({
    connect: () => {
      const port = fakePort();
      ports.push(port);
      return port;
    },
    broadcasts: { addListener: (listener) => void broadcastListeners.push(listener) },
  });
  return { connection, ports, broadcast: (message: unknown) => broadcastListeners.forEach((listener) => listener(message)) };
}

const event: JournalEvent = { runId: 'run-1', seq: 1, time: 1, type: 'run-start', data: {} };

describe('connectPanel', () => {
  it('passes valid journal events on and drops malformed messages', () => {
    const { connection, ports } = harness();
    const received: JournalEvent[] = [];
    connection.onEvent((incoming) => void received.push(incoming));

    ports[0]!.deliver({ type: 'journal-event', event });
    ports[0]!.deliver({ type: 'journal-event', event: { ...event, seq: -1 } });
    ports[0]!.deliver('nonsense');

    expect(received).toEqual([event]);
  });

  it('passes the ids of deleted runs on, and drops a deletion message that names none or too many', () => {
    const { connection, ports } = harness();
    const received: string[][] = [];
    connection.onRunsDeleted((runIds) => void received.push([...runIds]));

    ports[0]!.deliver({ type: 'runs-deleted', runIds: ['run-1', 'run-2'] });
    ports[0]!.deliver({ type: 'runs-deleted', runIds: [] });
    ports[0]!.deliver({ type: 'runs-deleted', runIds: Array.from({ length: 501 }, (_, index) => `run-${index}`) });

    expect(received).toEqual([['run-1', 'run-2']]);
  });

  it('does not reopen a closed Port on its own, but when the background announces it started, re-subscribing', () => {
    const { connection, ports, broadcast } = harness();
    let reconnects = 0;
    connection.onReconnect(() => (reconnects += 1));
    connection.subscribeOrigin('http://127.0.0.1:8000');

    ports[0]!.drop();
    expect(ports).toHaveLength(1);

    broadcast({ type: 'panel-service-ready' });
    expect(ports).toHaveLength(2);
    expect(ports[1]!.sent).toEqual([{ type: 'subscribe-origin', origin: 'http://127.0.0.1:8000' }]);
    expect(reconnects).toBe(1);
  });

  it('opens a fresh Port for a cancel after the old one closed, subscription first', () => {
    const { connection, ports } = harness();
    connection.subscribeRun('run-1');
    ports[0]!.drop();

    connection.cancelTask('run-1', 'task-1');

    expect(ports).toHaveLength(2);
    expect(ports[1]!.sent).toEqual([
      { type: 'subscribe-run', runId: 'run-1' },
      { type: 'cancel-task', runId: 'run-1', taskId: 'task-1' },
    ]);
  });
});
