import { describe, expect, it } from 'vitest';
import { parseBackgroundMessage, parsePanelMessage } from '../../../src/messaging/panel-messages';

describe('panel messages', () => {
  it('accepts every message the side panel sends', () => {
    const messages = [
      { type: 'subscribe-run', runId: 'run-1' },
      { type: 'subscribe-origin', origin: 'http://127.0.0.1:8000' },
      { type: 'unsubscribe' },
      { type: 'cancel-run', runId: 'run-1' },
      { type: 'cancel-task', runId: 'run-1', taskId: 'task-1' },
    ];

    expect(messages.map(parsePanelMessage)).toEqual(messages);
  });

  it('refuses unknown types, missing ids, extra fields and oversized ids', () => {
    const refused = [
      { type: 'delete-run', runId: 'run-1' },
      { type: 'cancel-task', runId: 'run-1' },
      { type: 'cancel-run', runId: 'run-1', extra: true },
      { type: 'subscribe-run', runId: 'x'.repeat(201) },
      { type: 'subscribe-run', runId: '' },
      'cancel-run',
      null,
    ];

    expect(refused.map(parsePanelMessage)).toEqual(refused.map(() => undefined));
  });

  it('accepts a journal event from the background and refuses a malformed one', () => {
    const event = { runId: 'run-1', seq: 1, time: 5, type: 'task-start', taskId: 'task-1', data: {} };

    expect(parseBackgroundMessage({ type: 'journal-event', event })).toEqual({ type: 'journal-event', event });
    expect(parseBackgroundMessage({ type: 'journal-event', event: { ...event, seq: 0 } })).toBeUndefined();
    expect(parseBackgroundMessage({ type: 'journal-event', event: { ...event, type: 'made-up' } })).toBeUndefined();
    expect(parseBackgroundMessage({ type: 'panel-service-ready' })).toEqual({ type: 'panel-service-ready' });
  });
});
