/**
 * Who decides the fate of a run left `running` when the background started: a page that reconnects
 * (resume) or the start-up sweep (interrupt). Both ask here synchronously, so a page reconnecting
 * while the sweep works can never have its run marked interrupted under it, nor the other way round.
 */
export interface RunClaims {
  /** True when the run may be resumed (nobody marked it interrupted); pair with `releaseResume`. */
  claimForResume(runId: string): boolean;
  /** Ends one resume's claim (its run ended, or resuming it failed). */
  releaseResume(runId: string): void;
  /** True when the run may be marked interrupted (no page is resuming it); final. */
  claimForInterrupt(runId: string): boolean;
}

/** Creates an empty set of claims (one per background start). */
export function createRunClaims(): RunClaims {
  const resuming = new Map<string, number>();
  const interrupted = new Set<string>();
  return {
    claimForResume(runId) {
      if (interrupted.has(runId)) return false;
      resuming.set(runId, (resuming.get(runId) ?? 0) + 1);
      return true;
    },
    releaseResume(runId) {
      const left = (resuming.get(runId) ?? 0) - 1;
      if (left > 0) resuming.set(runId, left);
      else resuming.delete(runId);
    },
    claimForInterrupt(runId) {
      if (resuming.has(runId)) return false;
      interrupted.add(runId);
      return true;
    },
  };
}
