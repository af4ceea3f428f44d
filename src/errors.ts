/**
 * Errors grouped by who is at fault. Each carries a string `code`, because class identity does not
 * survive extension messaging; messages say what happened and what to do.
 */
export type ErrorFault = 'configuration' | 'model-behavior' | 'provider' | 'host-contract' | 'cancelled';

export class RetinueError extends Error {
  constructor(
    readonly fault: ErrorFault,
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }

  toJSON(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** The user must fix settings (a missing connection, an unknown profile, a refused import). */
export class ConfigurationError extends RetinueError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super('configuration', code, message, options);
  }
}

/** The model used a tool wrongly; goes back to the model as the tool's result. */
export class ModelBehaviorError extends RetinueError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super('model-behavior', code, message, options);
  }
}

/** The model endpoint failed (after bounded retries): the invocation fails closed. */
export class ProviderError extends RetinueError {
  constructor(code: string, message: string, options?: { cause?: unknown; status?: number }) {
    super('provider', code, message, options);
    this.status = options?.status;
  }
  readonly status: number | undefined;
}

/** Storage, journal or serialization broke a contract: fail fast, the run fails. */
export class HostContractError extends RetinueError {
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super('host-contract', code, message, options);
  }
}

/** The work was cancelled (page Stop, side panel, timeout, or the parent ended). */
export class CancelledError extends RetinueError {
  /** `code` says why, where the side panel has words of its own for it (src/runtime/cancel-reasons.ts). */
  constructor(message = 'The work was cancelled.', options?: { cause?: unknown; code?: string }) {
    super('cancelled', options?.code ?? 'cancelled', message, options);
  }
}
