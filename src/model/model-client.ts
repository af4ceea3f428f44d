import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';

/** Sampling parameters a call may carry (from the prompt snapshot, overridden by the profile). */
export interface CallSampling {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  stop?: string | string[];
}

export interface ModelCallRequest {
  messages: ChatCompletionMessageParam[];
  tools?: ChatCompletionTool[];
  toolChoice?: ChatCompletionToolChoiceOption;
  sampling?: CallSampling;
  signal: AbortSignal;
  /** Streamed text of the assistant turn, as it arrives. */
  onTextDelta?: (text: string) => void;
}

export interface ModelCallUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
}

export interface ModelCallResult {
  /** The whole assistant turn, tool-call deltas assembled; ready to append to the history. */
  message: ChatCompletionAssistantMessageParam;
  finishReason: string | null;
  usage: ModelCallUsage;
}

/**
 * One model endpoint and model, ready to call. Calls stream, retry 429/5xx/network faults a bounded
 * number of times with backoff (honouring Retry-After), then reject with a ProviderError.
 */
export interface ModelClient {
  /** A label for journals and errors (e.g. `connection local · qwen3-8b`, `page model`). */
  readonly label: string;
  call(request: ModelCallRequest): Promise<ModelCallResult>;
}

/** Where and how to call: the connection binding, or the page's endpoint through a custom fetch. */
export interface ModelTarget {
  label: string;
  baseURL: string;
  apiKey: string;
  model: string;
  /** The `host` binding relays through the page with this fetch. */
  fetch?: typeof globalThis.fetch;
  /** Extra body fields every call carries (a host's body template: source, custom URL, ...). */
  extraBody?: Record<string, unknown>;
  /** Calls in flight at once through this target. */
  maxConcurrency?: number;
}
