import { HostContractError } from '../errors';
import type { ModelClient } from '../model/model-client';
import type { AgentTaskRecord } from '../records/task';
import { TaskTimeoutError } from './run-signals';
import type { RunSession } from './run-session';
import type { TaskTimer } from './scheduler';

/**
 * A delegated task's timeout, counted in working time: the clock starts at the task's first model
 * call (once it holds a connection slot, so a queue of other runs' calls does not count), stops
 * while it waits for a slot or a retry, and its deadline is stored on the task so that a restart
 * keeps it (the time the worker was gone counts: the user waited through it).
 */
export interface TaskClock {
  /** A model call begins: waiting (for a slot) until its attempt starts. */
  waiting(): void;
  /** An attempt starts: the first one starts the clock; later ones push the deadline back by the wait. */
  working(): void;
}

/** Saves the deadline on the task without holding up the call; a failed save fails the run fast. */
function saveDeadline(session: RunSession, taskId: string, deadlineAt: number): void {
  const task = session.tasks.get(taskId) as AgentTaskRecord;
  session.saveTask({ ...task, deadlineAt }).catch((error: unknown) =>
    session.failFast(error instanceof HostContractError ? error : new HostContractError('store-failed', String(error), { cause: error })),
  );
}

/**
 * The clock of one running task. A task resumed with a stored deadline is armed at once (a
 * deadline already past ends it at once).
 */
export function createTaskClock(session: RunSession, taskId: string, timer: TaskTimer): TaskClock {
  const task = session.tasks.get(taskId) as AgentTaskRecord;
  const timeoutMs = task.budget.timeoutMs;
  let deadlineAt = task.deadlineAt;
  let waitingSince: number | undefined;
  const arm = (): void => {
    if (deadlineAt !== undefined && timeoutMs !== undefined) timer.arm(deadlineAt - session.now(), new TaskTimeoutError(timeoutMs));
  };
  arm();
  return {
    waiting() {
      // A deadline already past stays armed: the task ends instead of waiting.
      if (timeoutMs === undefined || (deadlineAt !== undefined && deadlineAt <= session.now())) return;
      waitingSince ??= session.now();
      timer.disarm();
    },
    working() {
      if (timeoutMs === undefined) return;
      const now = session.now();
      const waited = waitingSince === undefined ? 0 : now - waitingSince;
      waitingSince = undefined;
      if (deadlineAt === undefined) {
        deadlineAt = now + timeoutMs;
        saveDeadline(session, taskId, deadlineAt);
      } else if (waited > 0) {
        deadlineAt += waited;
        saveDeadline(session, taskId, deadlineAt);
      }
      arm();
    },
  };
}

/** The task's model client, telling its clock when a call waits and when it works. */
export function clockedModel(model: ModelClient, clock: TaskClock): ModelClient {
  return {
    label: model.label,
    ...(model.pageModel !== undefined ? { pageModel: model.pageModel } : {}),
    ...(model.contextWindow ? { contextWindow: model.contextWindow.bind(model) } : {}),
    ...(model.opensWithBareThink ? { opensWithBareThink: model.opensWithBareThink.bind(model) } : {}),
    call(request) {
      clock.waiting();
      return model.call({
        ...request,
        onAttemptStart: () => {
          clock.working();
          request.onAttemptStart?.();
        },
        onRetry: (retry) => {
          clock.waiting();
          request.onRetry?.(retry);
        },
      });
    },
  };
}
