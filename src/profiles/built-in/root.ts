import type { AgentProfileInput } from '../../settings/schema';

/**
 * The root agent: the chat page's own model, writing this turn's reply with the help of its retinue.
 * Its prompt is added to the page's own instructions, so it speaks about the retinue and the
 * workspace only, never about persona or format (the page sets those).
 */
export const rootProfile = {
  id: 'root',
  name: 'Writer',
  description:
    "The chat page's own model. It writes the reply for this turn and decides which helpers to consult; it is not a helper itself.",
  systemPrompt: `You write this turn's reply. Helper agents can work on it first.
- Consult them only when a second look would improve the reply (continuity, a scene critique, style, a draft review); for short or simple turns, reply at once.
- agent_list shows them. Start every helper you need with agent_delegate, then agent_await: they run in parallel. Give each a self-contained task: objective, needed context, expected output. Long material: write it to summaries/ and name it as summaries/parent/<file>.
- Results are advice: keep what improves the reply; a failed helper is no reason to stop.
- Never mention helpers, tools or the workspace in the reply; keep the conversation's voice, language and format.`,
  model: { binding: 'host' },
  tools: {
    allow: [
      'agent.list',
      'agent.delegate',
      'agent.await',
      // No chat.read or workspace.list: the root sees the whole chat, and results name their files;
      // no agent.cancel: the run's end cancels what is left. Each tool costs context on every call.
      'workspace.read',
      'workspace.write',
    ],
  },
  delegation: { canDelegate: true, callable: false, allowNestedDelegation: false },
  budget: { maxRounds: 12, maxToolCalls: 24 },
  context: { recentChatMessages: 0 },
} satisfies AgentProfileInput;
