import { z } from 'zod';
import { lazySchema } from '../lazy-schema';
import { ModelBehaviorError } from '../errors';
import { artifactSchema } from '../records/capsule';
import { defineTool } from './tool-definition';

const textList = (what: string) => z.array(z.string().max(4_000)).max(50).optional().describe(what);

export const taskReturnParameters = lazySchema(() => z.strictObject({
  summary: z.string().min(1).max(20_000).describe('Your result in a few paragraphs of markdown: what you found or made.'),
  status: z
    .enum(['completed', 'partial', 'failed'])
    .optional()
    .describe('`completed` (the default) when you did the task, `partial` when only part of it, `failed` when you could not.'),
  findings: textList('The main points, one per entry.'),
  warnings: textList('Problems or doubts the requester should know about.'),
  suggestedNextActions: textList('What the requester could do next.'),
  questionsForCaller: textList('Questions only the requester can answer.'),
  artifacts: z
    .array(artifactSchema)
    .max(50)
    .optional()
    .describe('Files of your workspace worth reading, e.g. `{"path": "summaries/notes.md", "role": "full critique"}`.'),
  confidence: z.enum(['low', 'medium', 'high']).optional().describe('How sure you are of the result.'),
}));

/** `task.return`: the child hands over its result; this ends its task. Injected, never listed. */
export const taskReturnTool = defineTool({
  name: 'task.return',
  description:
    'Hand your result to the agent that asked for this task. This finishes your task: call it once, when you are done (or when you must stop).',
  parameters: taskReturnParameters,
  async execute(args, context) {
    if (!context.taskResult) throw new ModelBehaviorError('task-return-unavailable', 'You are not working on a delegated task; answer directly instead.');
    const warnings = [...(args.warnings ?? [])];
    let status = args.status ?? 'completed';
    if (context.wrappingUp) {
      if (status === 'completed') status = 'partial';
      warnings.push(
        `Stopped at its budget (${context.budget.maxRounds} rounds, ${context.budget.maxToolCalls} tool calls) before finishing on its own; this result may be incomplete.`,
      );
    }
    const capsule = await context.taskResult.submit({
      status,
      summary: args.summary,
      findings: args.findings ?? [],
      warnings,
      suggestedNextActions: args.suggestedNextActions ?? [],
      questionsForCaller: args.questionsForCaller ?? [],
      artifacts: args.artifacts ?? [],
      confidence: args.confidence,
    });
    return { content: 'Your result was handed over. Your task is finished.', ending: { kind: 'task-returned', capsule } };
  },
});
