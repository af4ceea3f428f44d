import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';
import type { AgentInvocation } from '../../../src/records/invocation';
import type { AgentRun } from '../../../src/records/run';
import { emptyUsage } from '../../../src/records/usage';
import { LIMITS } from '../../../src/runtime/limits/all-limits';
import { toolCallRefusal, toolResultNotes } from '../../../src/runtime/limits/asking';
import { replyDeadline, REPLY_DUE_NOTICE } from '../../../src/runtime/limits/reply-deadline';
import { roundCap } from '../../../src/runtime/limits/round-cap';
import { toolCallCap } from '../../../src/runtime/limits/tool-call-cap';
import { RunSession } from '../../../src/runtime/run-session';
import { defaultsSchema } from '../../../src/settings/schema';
import { openRunStore } from '../../../src/store/idb-run-store';
import { buildInvocation, buildRun, uniqueDatabaseName } from '../../support/record-builders';

const LIMITS_FOLDER = fileURLToPath(new URL('../../../src/runtime/limits/', import.meta.url));
/** The folder's files that are not limits: the interface, the list and the helpers that ask the list. */
const NOT_LIMITS = new Set(['limit.ts', 'all-limits.ts', 'asking.ts']);

test('every limit file in src/runtime/limits is in LIMITS, under its own file name, once', async () => {
  const files = readdirSync(LIMITS_FOLDER).filter((name) => name.endsWith('.ts') && !NOT_LIMITS.has(name));
  expect(files.length).toBeGreaterThan(0);
  for (const file of files) {
    const module = (await import(`../../../src/runtime/limits/${file}`)) as Record<string, unknown>;
    const exported = Object.values(module).filter((value): value is { id: string } => typeof value === 'object' && value !== null && 'stopsLoop' in value);
    expect(exported.map((limit) => limit.id), file).toEqual([file.replace(/\.ts$/, '')]);
    expect(LIMITS, `${file} exports a limit that LIMITS does not list`).toContain(exported[0]);
  }
  expect(new Set(LIMITS.map((limit) => limit.id)).size).toBe(files.length);
});

async function sessionFor(run: Partial<AgentRun> = {}): Promise<RunSession> {
  const store = await openRunStore({ name: uniqueDatabaseName() });
  return new RunSession({
    environment: { store, profiles: new Map(), defaults: defaultsSchema.parse({}), now: () => 1_000, newId: () => crypto.randomUUID() },
    run: buildRun(run),
    snapshot: { messages: [{ role: 'user', content: 'Hi.' }] },
    tasks: [],
    resolveModel: () => {
      throw new Error('no model calls in this test');
    },
    runChildTask: async () => undefined,
  });
}

const invocation = (overrides: Partial<AgentInvocation> = {}): AgentInvocation =>
  buildInvocation({ budget: { maxRounds: 2, maxToolCalls: 2 }, usage: emptyUsage(), ...overrides });

test('the round cap ends the loop once the rounds reach maxRounds', async () => {
  const session = await sessionFor();
  expect(roundCap.stopsLoop({ session, invocation: invocation({ usage: { ...emptyUsage(), rounds: 1 } }) })).toBe(false);
  expect(roundCap.stopsLoop({ session, invocation: invocation({ usage: { ...emptyUsage(), rounds: 2 } }) })).toBe(true);
});

test('the tool-call cap refuses a call past maxToolCalls with its words, and ends the loop once recorded as met', async () => {
  const session = await sessionFor();
  expect(toolCallRefusal({ session, invocation: invocation({ usage: { ...emptyUsage(), toolCalls: 1 } }) }, 'workspace_list')).toBeUndefined();
  const refusal = toolCallRefusal({ session, invocation: invocation({ usage: { ...emptyUsage(), toolCalls: 2 } }) }, 'workspace_list');
  expect(refusal?.limit).toBe(toolCallCap);
  expect(refusal?.text).toBe('workspace_list was not run: you have used all the tool calls this work allows. Finish with what you have.');
  expect(toolCallCap.stopsLoop({ session, invocation: invocation() })).toBe(false);
  expect(toolCallCap.stopsLoop({ session, invocation: invocation({ limits: { met: ['tool-call-cap'] } }) })).toBe(true);
});

test('a reply deadline already past when the run resumes is past at once; its note is given once, and the round after it ends the loop', async () => {
  const session = await sessionFor({ replyDueAt: 500 });
  session.replyDue.start(1_000);
  expect(session.replyDue.passed).toBe(true);
  const root = invocation({ kind: 'root', usage: { ...emptyUsage(), rounds: 3 } });

  const first = toolResultNotes({ session, invocation: root });
  expect(first.notes).toEqual([REPLY_DUE_NOTICE]);
  expect(first.invocation.limits?.notedAtRound).toEqual({ 'reply-deadline': 3 });
  expect(toolResultNotes({ session, invocation: first.invocation }).notes).toEqual([]);
  expect(replyDeadline.stopsLoop({ session, invocation: first.invocation })).toBe(false);
  expect(replyDeadline.stopsLoop({ session, invocation: { ...first.invocation, usage: { ...emptyUsage(), rounds: 4 } } })).toBe(true);
  // A child is never told: the deadline is the root's.
  expect(toolResultNotes({ session, invocation: invocation({ kind: 'subagent' }) }).notes).toEqual([]);
});

test('a run without replyDueAt has no deadline: no note, no wait ending', async () => {
  const session = await sessionFor();
  session.replyDue.start(1_000);
  const root = invocation({ kind: 'root' });
  expect(session.replyDue.enabled).toBe(false);
  expect(replyDeadline.toolResultNote?.({ session, invocation: root })).toBeUndefined();
  expect(replyDeadline.endsWaits?.({ session, invocation: root })).toBeUndefined();
});
