import { describe, expect, it } from 'vitest';
import { parsePanelMessage } from '../../../src/messaging/panel-messages';
import { agentTaskRecordSchema } from '../../../src/records/task';
import { awaitsReview, decideReview, lapseReview, REVIEW_EDIT_MAX_CHARS, type TaskReview } from '../../../src/records/task-review';
import { buildTask } from '../../support/record-builders';

const awaiting: TaskReview = { state: 'awaiting', requestedAt: 100 };

describe('review state transitions', () => {
  it('moves an awaiting review to approved, edited (with the text) or discarded by the user', () => {
    expect(decideReview(awaiting, { kind: 'approve' }, 200)).toEqual({ state: 'approved', requestedAt: 100, decidedAt: 200 });
    expect(decideReview(awaiting, { kind: 'edit', text: 'Dawn, not dusk.' }, 200)).toEqual({ state: 'edited', requestedAt: 100, decidedAt: 200, editedText: 'Dawn, not dusk.' });
    expect(decideReview(awaiting, { kind: 'discard' }, 200)).toEqual({ state: 'discarded', requestedAt: 100, decidedAt: 200 });
  });

  it('never moves a decided review again, and never invents one', () => {
    const approved = decideReview(awaiting, { kind: 'approve' }, 200);
    const lapsed = lapseReview(awaiting, 'await-timeout', 300);

    expect(decideReview(approved, { kind: 'discard' }, 400)).toBe(approved);
    expect(decideReview(lapsed, { kind: 'edit', text: 'late' }, 400)).toBe(lapsed);
    expect(lapseReview(approved, 'reply-deadline', 400)).toBe(approved);
    expect(decideReview(undefined, { kind: 'approve' }, 400)).toBeUndefined();
    expect(lapseReview(undefined, 'await-timeout', 400)).toBeUndefined();
  });

  it('discards an awaiting review that lapsed, saying why', () => {
    expect(lapseReview(awaiting, 'await-timeout', 300)).toEqual({ state: 'discarded', requestedAt: 100, decidedAt: 300, lapse: 'await-timeout' });
    expect(lapseReview(awaiting, 'reply-deadline', 300)).toEqual({ state: 'discarded', requestedAt: 100, decidedAt: 300, lapse: 'reply-deadline' });
  });

  it('counts only an awaiting review as waiting', () => {
    expect(awaitsReview({ review: awaiting })).toBe(true);
    expect(awaitsReview({ review: lapseReview(awaiting, 'await-timeout', 1) })).toBe(false);
    expect(awaitsReview({})).toBe(false);
  });

  it('stores the review on the task record, and an old record without one still loads', () => {
    const edited = { ...buildTask(), status: 'completed' as const, review: decideReview(awaiting, { kind: 'edit', text: 'Mine.' }, 2) };
    expect(agentTaskRecordSchema.parse(edited).review).toEqual(edited.review);
    expect(agentTaskRecordSchema.parse(buildTask()).review).toBeUndefined();
    expect(agentTaskRecordSchema.safeParse({ ...buildTask(), review: { state: 'edited', requestedAt: 1, decidedAt: 2 } }).success).toBe(false);
  });
});

describe('the review-task panel message', () => {
  const base = { type: 'review-task', runId: 'run-1', taskId: 'task-1' };

  it('accepts approve, discard and an edit with its text (trimmed)', () => {
    expect(parsePanelMessage({ ...base, decision: { kind: 'approve' } })).toEqual({ ...base, decision: { kind: 'approve' } });
    expect(parsePanelMessage({ ...base, decision: { kind: 'discard' } })).toEqual({ ...base, decision: { kind: 'discard' } });
    expect(parsePanelMessage({ ...base, decision: { kind: 'edit', text: '\n Dawn. \n' } })).toEqual({ ...base, decision: { kind: 'edit', text: 'Dawn.' } });
  });

  it('refuses an empty or oversized edit, unknown decisions, extra fields and a missing task', () => {
    const refused = [
      { ...base, decision: { kind: 'edit', text: '   ' } },
      { ...base, decision: { kind: 'edit', text: 'x'.repeat(REVIEW_EDIT_MAX_CHARS + 1) } },
      { ...base, decision: { kind: 'edit' } },
      { ...base, decision: { kind: 'approve', text: 'also this' } },
      { ...base, decision: { kind: 'accept' } },
      { ...base, decision: 'approve' },
      { ...base, decision: { kind: 'approve' }, extra: 1 },
      { type: 'review-task', runId: 'run-1', decision: { kind: 'approve' } },
    ];
    expect(refused.map(parsePanelMessage)).toEqual(refused.map(() => undefined));
  });
});
