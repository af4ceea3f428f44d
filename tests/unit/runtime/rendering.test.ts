import { expect, test } from 'vitest';
import type { ResultCapsule } from '../../../src/records/capsule';
import { renderCapsuleForParent, renderResultFile } from '../../../src/rendering/capsule-markdown';
import { renderChildSystemMessage, renderTaskBriefing } from '../../../src/runtime/child-context';
import { renderAsMarkdown } from '../../../src/rendering/markdown-rendering';
import { profileSchema } from '../../../src/settings/schema';

const capsule: ResultCapsule = {
  taskId: 'task-8f2c',
  workspaceKey: 'scene-critic-002',
  agentId: 'scene-critic',
  title: 'Critique the duel',
  status: 'partial',
  summary: 'The duel needs tension.',
  findings: ['Slow the first exchange.'],
  warnings: ['Ran out of rounds.'],
  suggestedNextActions: [],
  questionsForCaller: ['Should the duke survive?'],
  artifacts: [
    { path: 'summaries/notes.md', role: 'full notes' },
    { path: 'scratch/draft.md', kind: 'draft' },
    { path: 'summaries/parent/plan.md' },
  ],
  confidence: 'medium',
  createdAt: 1,
};

test('a capsule reaches its parent as markdown, with paths the parent can open and no ids', () => {
  const actual = renderCapsuleForParent(capsule);

  expect(actual).toBe(
    [
      '### scene-critic-002 — partial result',
      '_Critique the duel_',
      '',
      '**Summary**',
      'The duel needs tension.',
      '',
      '**Findings**',
      '- Slow the first exchange.',
      '',
      '**Warnings**',
      '- Ran out of rounds.',
      '',
      '**Questions for you**',
      '- Should the duke survive?',
      '',
      '**Files**',
      '- `summaries/agents/scene-critic-002/notes.md` — full notes',
      '- `scratch/agents/scene-critic-002/draft.md` — draft',
      '- `summaries/plan.md`',
      '',
      '**Confidence**: medium',
      '',
      'Notes and the full result: `summaries/agents/scene-critic-002/`',
    ].join('\n'),
  );
  expect(actual).not.toContain('task-8f2c');
});

test('a long capsule is cut at the cap and points to the full result', () => {
  const long = { ...capsule, summary: 'word '.repeat(4_000) };

  const actual = renderCapsuleForParent(long, 8_000);

  expect(actual.length).toBeLessThanOrEqual(8_000);
  expect(actual.endsWith('read `summaries/agents/scene-critic-002/result.md` for the rest)')).toBe(true);
});

test('the result file carries the whole capsule for other agents', () => {
  const actual = renderResultFile(capsule);

  expect(actual.startsWith('# Critique the duel\n\nAgent: scene-critic · Task: scene-critic-002 · Status: partial result')).toBe(true);
  expect(actual).toContain('**Summary**\nThe duel needs tension.');
});

test('objects in a task brief are rendered as readable markdown, not JSON', () => {
  const actual = renderAsMarkdown({ scene: 'the duel', mustKeep: ['the rain', 'the silence'], cast: { hero: 'Mira', villain: 'the duke' } });

  expect(actual).toBe(
    ['- **Scene**: the duel', '- **Must keep**:', '  - the rain', '  - the silence', '- **Cast**:', '  - **Hero**: Mira', '  - **Villain**: the duke'].join('\n'),
  );
});

test('the briefing has title, objective, context, expected output and the workspace, in that order', () => {
  const actual = renderTaskBriefing({
    task: { title: 'Check names', objective: 'Find name mix-ups.', context: { chapter: 3 }, expectedOutput: 'A list.' },
    workspaceEntries: [
      { path: 'summaries/', kind: 'folder' },
      { path: 'summaries/parent/plan.md', kind: 'file', size: 120 },
    ],
    recentChat: [{ role: 'user', content: 'Where is the duke?' }],
  });

  const headings = actual.split('\n').filter((line) => line.startsWith('#'));
  expect(headings).toEqual(['# Check names', '## Objective', '## Context', '## Expected Output', '## Your workspace', '## Recent conversation (last 1 messages)']);
  expect(actual).toContain('- **Chapter**: 3');
  expect(actual).toContain('- `summaries/parent/plan.md` (120 characters)');
  expect(actual).toContain('**user**: Where is the duke?');
});

test('an empty workspace says so; no recent chat unless given', () => {
  const actual = renderTaskBriefing({ task: { title: 'T', objective: 'O' }, workspaceEntries: [] });

  expect(actual).toContain('There are no files yet.');
  expect(actual).not.toContain('## Context');
  expect(actual).not.toContain('Recent conversation');
});

test("the child's system message is the safety baseline, the profile's prompt, then the task rules", () => {
  const profile = profileSchema.parse({ id: 'critic', name: 'Critic', description: 'Critiques.', systemPrompt: 'You critique scenes.' });

  const actual = renderChildSystemMessage(profile);

  const baseline = actual.indexOf('You are one member of a team of agents.');
  const prompt = actual.indexOf('You critique scenes.');
  const rules = actual.indexOf('## How to work');
  expect(baseline).toBe(0);
  expect(prompt).toBeGreaterThan(baseline);
  expect(rules).toBeGreaterThan(prompt);
  expect(actual).toContain('finish with `task_return`');
});
