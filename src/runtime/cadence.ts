/**
 * When an agent runs (a profile's `runs`, issue 25): the decisions alone, no records written. Retinue
 * starts `every turn` and `every N turns` helpers before the writer's first call and `after the
 * reply` helpers once the reply is out; `on demand` helpers run only from the side panel; the writer
 * may delegate `when asked` helpers alone. cadence-start.ts acts on these decisions.
 */
import type { PromptSnapshot } from '../hosts/prompt-snapshot';
import type { AgentProfile, Runs } from '../settings/schema';
import type { EarlierResult } from './earlier-results';

export type Cadence =
  | { kind: 'when-asked' }
  | { kind: 'every-turns'; turns: number }
  | { kind: 'after-reply' }
  | { kind: 'on-demand' };

/** The cadence a profile's `runs` words name (the schema only lets valid words in). */
export function cadenceOf(runs: Runs): Cadence {
  if (runs === 'when asked') return { kind: 'when-asked' };
  if (runs === 'every turn') return { kind: 'every-turns', turns: 1 };
  if (runs === 'after the reply') return { kind: 'after-reply' };
  if (runs === 'on demand') return { kind: 'on-demand' };
  const turns = Number.parseInt(runs.slice('every '.length), 10);
  return Number.isFinite(turns) && turns >= 1 ? { kind: 'every-turns', turns } : { kind: 'when-asked' };
}

/**
 * Which turn of its conversation a request is: the number of user messages it carries. A swipe or
 * regenerate resends the same messages, so it is the same turn; an edit of an earlier message keeps
 * the count of the messages before it.
 */
export function turnNumberOf(snapshot: PromptSnapshot): number {
  let users = 0;
  for (const message of snapshot.messages) if (message.role === 'user') users += 1;
  return Math.max(1, users);
}

/** Whether an `every N turns` helper is due on this turn: the first, then every N-th after it. */
export function isDueOnTurn(cadence: Cadence, turn: number): boolean {
  return cadence.kind === 'every-turns' && (turn - 1) % cadence.turns === 0;
}

/** Helpers Retinue starts for one turn, before the writer's first call and after its reply. */
export interface CadencePlan {
  atStart: AgentProfile[];
  afterReply: AgentProfile[];
  /** Due at the start, but the ledger already holds their result for this message (a swipe): not run again. */
  heldByLedger: AgentProfile[];
}

/**
 * The plan for one turn. The writer's own profile never runs on a cadence. A swipe or regenerate
 * does not run a start-of-turn helper again when an earlier attempt at the same message left its
 * result in the ledger (an `earlier-…` result of that agent, read by the one rule).
 */
export function planCadence(input: { profiles: Iterable<AgentProfile>; rootProfileId: string; snapshot: PromptSnapshot; earlier: readonly EarlierResult[] }): CadencePlan {
  const turn = turnNumberOf(input.snapshot);
  const plan: CadencePlan = { atStart: [], afterReply: [], heldByLedger: [] };
  for (const profile of input.profiles) {
    if (profile.id === input.rootProfileId) continue;
    const cadence = cadenceOf(profile.runs);
    if (cadence.kind === 'after-reply') plan.afterReply.push(profile);
    if (!isDueOnTurn(cadence, turn)) continue;
    const held = input.earlier.some((result) => result.kind === 'same-message' && result.task.targetProfileId === profile.id);
    (held ? plan.heldByLedger : plan.atStart).push(profile);
  }
  return plan;
}

/** Whether an agent may delegate `target` at all: only `when asked` helpers are delegated by agents. */
export function mayBeDelegated(target: AgentProfile): boolean {
  return cadenceOf(target.runs).kind === 'when-asked';
}

/** Why an agent may not delegate `target` (model-facing, from the caller's point of view). */
export function cadenceRefusal(target: AgentProfile): string {
  const cadence = cadenceOf(target.runs);
  const name = `"${target.id}"`;
  if (cadence.kind === 'every-turns') {
    return `The agent ${name} is not yours to delegate: it runs ${target.runs} on its own. On a turn it runs, its result is offered to you by name with agent_await; on other turns, go on without it.`;
  }
  if (cadence.kind === 'after-reply') {
    return `The agent ${name} is not yours to delegate: it runs on its own once the reply is out, and its result is read next turn.`;
  }
  return `The agent ${name} is not yours to delegate: only the user starts it. Go on without it.`;
}

/** The short section the writer reads in its first call about the helpers Retinue started for it. */
export function renderCadenceSection(plan: Pick<CadencePlan, 'atStart'>): string | undefined {
  if (plan.atStart.length === 0) return undefined;
  return [
    '## Helpers already working on this turn',
    ...plan.atStart.map((profile) => `- \`${profile.id}\` — ${profile.name} (runs ${profile.runs})`),
    'agent_await with a name gives you its result; its notes are in `summaries/agents/<name>/`.',
  ].join('\n');
}
