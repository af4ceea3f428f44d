import type { Limit } from './limit';

/**
 * The invocation's round cap (`budget.maxRounds`). The forced wrap-up is one extra call after the
 * loop, so rounds count up to `maxRounds` first.
 */
export const roundCap: Limit = {
  id: 'round-cap',
  stopsLoop: ({ invocation }) => invocation.usage.rounds >= invocation.budget.maxRounds,
};
