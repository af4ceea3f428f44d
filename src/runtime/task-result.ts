import type { ResultCapsule } from '../records/capsule';
import type { AgentTaskRecord } from '../records/task';
import type { TaskResultInput, TaskResultPort } from '../tools/tool-definition';
import { resolveChildArtifactPath } from '../workspace/child-view';
import { agentResultPath, childResultPath } from '../workspace/layout';
import { renderResultFile } from '../rendering/capsule-markdown';
import type { RunSession } from './run-session';
import { childScopeOf } from './task-tree';
import { asksForReview } from './task-review';

/**
 * Writes a task's result capsule: `agent-results/<child-invocation-id>.json` (structured, for audit
 * and the UI) and `summaries/agents/<key>/result.md` (markdown, what other agents read), with the
 * task record pointing at it, in one step. Writing the same result again is harmless (resume).
 */
export async function writeTaskResult(session: RunSession, taskId: string, result: TaskResultInput): Promise<ResultCapsule> {
  const task = session.tasks.get(taskId) as AgentTaskRecord;
  const capsule: ResultCapsule = {
    taskId: task.id,
    workspaceKey: task.workspaceKey,
    agentId: task.targetProfileId,
    title: task.task.title,
    ...result,
    // Normalised virtual paths, as the child sees them; a path outside its view is refused here.
    artifacts: result.artifacts.map((artifact) => ({ ...artifact, path: resolveChildArtifactPath(childScopeOf(session, task), artifact.path).virtualPath })),
    createdAt: session.now(),
  };
  const resultRef = agentResultPath(task.childInvocationId);
  // A result held for the user's review gets its `result.md` once the user lets it stand (task-review.ts).
  const readable = !asksForReview(session, task) || capsule.status === 'failed';
  // The files and the task pointing at them are one step: a task never points at a result not stored.
  await session.workspace.writeFiles(
    [
      { path: resultRef, content: `${JSON.stringify(capsule, null, 2)}\n` },
      ...(readable ? [{ path: childResultPath(task.workspaceKey), content: renderResultFile(capsule) }] : []),
    ],
    async (files) => {
      const latest = session.tasks.get(taskId) ?? task;
      const pointed = { ...latest, resultRef, resultStatus: capsule.status };
      session.tasks.set(taskId, pointed);
      await session.saveStep({ files, tasks: [pointed] });
    },
  );
  session.rememberCapsule(task.id, capsule);
  return capsule;
}

/** The `task.return` port of one child: results land on its task. */
export function createTaskResultPort(session: RunSession, taskId: string): TaskResultPort {
  return { submit: (result) => writeTaskResult(session, taskId, result) };
}

/** A failed task still gives its parent a capsule: what went wrong, in words. */
export function failedResult(message: string): TaskResultInput {
  return {
    status: 'failed',
    summary: `The task could not be finished: ${message}`,
    findings: [],
    warnings: [],
    suggestedNextActions: ['Go on without this result, or delegate the task again with a narrower objective.'],
    questionsForCaller: [],
    artifacts: [],
  };
}
