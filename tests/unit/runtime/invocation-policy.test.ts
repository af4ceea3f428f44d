import { expect, test } from 'vitest';
import { childPolicy, delegableAgents, rootPolicy } from '../../../src/runtime/invocation-policy';
import { profileSchema, type AgentProfileInput } from '../../../src/settings/schema';

const everyTool: AgentProfileInput['tools'] = {
  allow: ['agent.list', 'agent.delegate', 'agent.await', 'agent.cancel', 'workspace.list', 'workspace.read', 'workspace.write', 'workspace.commit', 'workspace.finish', 'chat.read'],
};
const profile = (input: Partial<AgentProfileInput> & { id: string }) => profileSchema.parse({ name: input.id, description: 'An agent.', systemPrompt: '', ...input });

test('a root that may delegate gets its allowed tools, agent tools included', () => {
  const actual = rootPolicy(profile({ id: 'root', tools: everyTool, delegation: { canDelegate: true, callable: false } }));

  expect(actual).toEqual({ kind: 'root', exitPolicy: 'runFinishAllowed', tools: everyTool.allow });
});

test('a root without canDelegate gets no agent tools, even when listed', () => {
  const actual = rootPolicy(profile({ id: 'root', tools: everyTool, delegation: { canDelegate: false } }));

  expect(actual.tools).toEqual(['workspace.list', 'workspace.read', 'workspace.write', 'workspace.commit', 'workspace.finish', 'chat.read']);
});

test('a child without nested delegation gets no agent tools, commit or finish, and always gets task.return', () => {
  const actual = childPolicy(profile({ id: 'critic', tools: everyTool, delegation: { canDelegate: true } }), { depth: 1, maxDepth: 2 });

  expect(actual).toEqual({
    kind: 'subagent',
    exitPolicy: 'taskReturnRequired',
    tools: ['workspace.list', 'workspace.read', 'workspace.write', 'chat.read', 'task.return'],
  });
});

test('a child allowed nested delegation gets its listed agent tools while a task it starts stays within maxDepth', () => {
  const nested = profile({ id: 'critic', tools: everyTool, delegation: { canDelegate: true, allowNestedDelegation: true } });

  const actual = childPolicy(nested, { depth: 1, maxDepth: 2 });

  expect(actual).toEqual({
    kind: 'subagent',
    exitPolicy: 'taskReturnRequired',
    tools: ['agent.list', 'agent.delegate', 'agent.await', 'agent.cancel', 'workspace.list', 'workspace.read', 'workspace.write', 'chat.read', 'task.return'],
  });
});

test('at maxDepth a child allowed nested delegation is not offered agent tools and is told why', () => {
  const nested = profile({ id: 'critic', tools: everyTool, delegation: { canDelegate: true, allowNestedDelegation: true } });

  const actual = childPolicy(nested, { depth: 2, maxDepth: 2 });

  expect(actual.tools).toEqual(['workspace.list', 'workspace.read', 'workspace.write', 'chat.read', 'task.return']);
  expect(actual.withheld?.tools).toEqual(['agent.list', 'agent.delegate', 'agent.await', 'agent.cancel']);
  expect(actual.withheld?.reason).toMatch(/deepest level of delegation/);
});

test('nested delegation needs canDelegate too', () => {
  const actual = childPolicy(profile({ id: 'critic', tools: everyTool, delegation: { canDelegate: false, allowNestedDelegation: true } }), { depth: 1, maxDepth: 3 });

  expect(actual.tools.filter((tool) => tool.startsWith('agent.'))).toEqual([]);
  expect(actual.withheld).toBeUndefined();
});

test('the agents a caller may delegate to: callable, allowed, never itself', () => {
  const root = profile({ id: 'root', delegation: { canDelegate: true, callable: true, allowedAgents: ['critic', 'hidden', 'root'] } });
  const profiles = [root, profile({ id: 'critic' }), profile({ id: 'checker' }), profile({ id: 'hidden', delegation: { callable: false } })];

  expect(delegableAgents(root, profiles).map((agent) => agent.id)).toEqual(['critic']);
  expect(delegableAgents({ ...root, delegation: { ...root.delegation, allowedAgents: undefined } }, profiles).map((agent) => agent.id)).toEqual(['critic', 'checker']);
  expect(delegableAgents(profile({ id: 'solo' }), profiles)).toEqual([]);
});
