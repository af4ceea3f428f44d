import { hasMet, type Limit } from './limit';

/**
 * The invocation's tool-call cap (`budget.maxToolCalls`; `task.return` never counts). A call past it
 * is not run: it gets a "budget spent" result, the cap is recorded as met with that result, and the
 * wrap-up follows the turn.
 */
export const toolCallCap: Limit = {
  id: 'tool-call-cap',
  stopsLoop: ({ invocation }) => hasMet(invocation, 'tool-call-cap'),
  refusesToolCall({ invocation }, providerToolName) {
    if (invocation.usage.toolCalls < invocation.budget.maxToolCalls) return undefined;
    return `${providerToolName} was not run: you have used all the tool calls this work allows. Finish with what you have.`;
  },
};
