import type { CallRanWith, CallSampling, ModelClient } from '../model/model-client';
import { SAMPLING_FIELDS, type SamplingField, type SamplingValues } from '../model/sampling-sources';
import type { AgentTaskRecord } from '../records/task';
import type { TaskRanWith } from '../records/task-ran-with';
import type { RunSession } from './run-session';

export interface RanWithRecording {
  session: RunSession;
  taskId: string;
  /** The sampling the invocation's calls carry, and the agent's fields its source does not take. */
  sampling: CallSampling;
  dropped: SamplingField[];
}

function sampledValues(sampling: CallSampling): SamplingValues {
  const values: SamplingValues = {};
  for (const field of SAMPLING_FIELDS) {
    const value = sampling[field];
    if (value !== undefined) values[field] = value;
  }
  return values;
}

function sameRanWith(before: TaskRanWith | undefined, after: TaskRanWith): boolean {
  return before !== undefined && JSON.stringify(before) === JSON.stringify(after);
}

/**
 * The task's model client, recording on the task what its calls ran with (the side panel's task row
 * shows it): the page's report for a call on a SillyTavern connection profile (its model, completion
 * preset and sampling), else the client's label and the sampling Retinue sent. Written once, and again
 * only when it changes (a preset edited between rounds), with the turn's step rather than on its own.
 */
export function ranWithRecorded(model: ModelClient, recording: RanWithRecording): ModelClient {
  const { session, taskId } = recording;
  const save = (ranWith: TaskRanWith): void => {
    const task = session.tasks.get(taskId) as AgentTaskRecord | undefined;
    if (!task || sameRanWith(task.ranWith, ranWith)) return;
    // Stored with the turn the call made, which is saved next.
    session.carryTask({ ...task, ranWith });
  };
  const fromPage = (report: CallRanWith): TaskRanWith => ({
    model: report.model ?? model.label,
    ...(report.preset !== undefined ? { preset: report.preset } : {}),
    sampling: report.sampling,
    dropped: [...new Set([...recording.dropped, ...report.dropped])],
  });
  return {
    ...model,
    call(request) {
      let reported = false;
      return model
        .call({
          ...request,
          onRanWith: (report) => {
            reported = true;
            save(fromPage(report));
            request.onRanWith?.(report);
          },
        })
        .then((result) => {
          const answered = result.answeredBy ?? model;
          if (!reported) save({ model: answered.label, ...(answered.pageModel !== undefined ? { pageModel: answered.pageModel } : {}), sampling: sampledValues(recording.sampling), dropped: recording.dropped });
          return result;
        });
    },
  };
}
