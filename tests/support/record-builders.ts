import type { AgentInvocation } from '../../src/records/invocation';
import type { AgentRun } from '../../src/records/run';
import type { AgentTaskRecord } from '../../src/records/task';
import { emptyUsage } from '../../src/records/usage';

/** Valid records with sensible defaults, for tests; pass only what a test is about. */
export function buildRun(overrides: Partial<AgentRun> = {}): AgentRun {
  const id = overrides.id ?? 'run-1';
  return {
    id,
    origin: 'http://127.0.0.1:8000',
    adapter: 'openai-chat',
    title: 'A chat turn',
    status: 'completed',
    rootInvocationId: `${id}-root`,
    createdAt: 1_000,
    usage: emptyUsage(),
    ...overrides,
  };
}

export function buildInvocation(overrides: Partial<AgentInvocation> = {}): AgentInvocation {
  const id = overrides.id ?? 'invocation-1';
  const runId = overrides.runId ?? 'run-1';
  return {
    id,
    runId,
    profileId: 'root',
    kind: 'root',
    status: 'running',
    exitPolicy: 'runFinishAllowed',
    budget: { maxRounds: 12, maxToolCalls: 24 },
    usage: emptyUsage(),
    providerSessionId: `${runId}:${id}`,
    messages: [{ role: 'user', content: 'Hello' }],
    depth: 0,
    createdAt: 1_000,
    ...overrides,
  };
}

export function buildTask(overrides: Partial<AgentTaskRecord> = {}): AgentTaskRecord {
  return {
    id: 'task-1',
    runId: 'run-1',
    parentInvocationId: 'invocation-1',
    childInvocationId: 'invocation-2',
    targetProfileId: 'scene-critic',
    workspaceKey: 'scene-critic',
    continuation: 'returnToParent',
    status: 'queued',
    task: { title: 'Critique', objective: 'Critique the last scene.' },
    budget: { maxRounds: 6, maxToolCalls: 12 },
    createdAt: 1_000,
    usage: emptyUsage(),
    ...overrides,
  };
}

let databaseCounter = 0;
/** A fresh database name per test, so tests never see each other's records. */
export function uniqueDatabaseName(): string {
  databaseCounter += 1;
  return `retinue-test-${databaseCounter}-${Math.random().toString(36).slice(2)}`;
}
