import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionMessageParam,
  ChatCompletionTool,
  ChatCompletionToolChoiceOption,
} from 'openai/resources/chat/completions';
import type { CompletionBodyOutcome } from './completion-body';
import type { SamplingField } from './sampling-sources';
import type { LearnedContextWindow } from './tool-protocol-memory';

/** Sampling parameters a call may carry (from the prompt snapshot, overridden by the profile). */
export interface CallSampling {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  presence_penalty?: number;
  frequency_penalty?: number;
  top_k?: number;
  min_p?: number;
  repetition_penalty?: number;
  seed?: number;
  reasoning_effort?: 'minimal' | 'low' | 'medium' | 'high';
  stop?: string | string[];
}

export interface ModelCallRequest {
  messages: ChatCompletionMessageParam[];
  tools?: ChatCompletionTool[];
  toolChoice?: ChatCompletionToolChoiceOption;
  sampling?: CallSampling;
  signal: AbortSignal;
  /**
   * The root's call, which the page's reply waits on: when every connection is busy it takes the next
   * one free ahead of helpers' calls already waiting (a call under way is never stopped for it).
   */
  urgent?: boolean;
  /**
   * Streamed text of the assistant turn, as it arrives. When an attempt fails mid-stream and the call
   * is retried, the text starts again from the beginning after `onRetry`.
   */
  onTextDelta?: (text: string) => void;
  /** Streamed reasoning (`reasoning_content` / `reasoning` deltas), as it arrives; restarts after `onRetry` too. */
  onReasoningDelta?: (text: string) => void;
  /** Told at each chunk that carries a tool-call delta, so a listener knows early that the turn calls tools. */
  onToolCallDelta?: () => void;
  /** Told what a call on a SillyTavern connection profile runs with (its model, preset and sampling), as the page reports it. */
  onRanWith?: (ranWith: CallRanWith) => void;
  /** Told as each attempt starts, once it holds a connection slot (time before was spent waiting). */
  onAttemptStart?: () => void;
  /** Told before each retry, so a journal or UI can show it (and drop text streamed so far). */
  onRetry?: (retry: ModelCallRetry) => void;
}

/** One failed attempt that will be retried. */
export interface ModelCallRetry {
  /** The attempt that failed, from 1. */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** What went wrong, in words (e.g. `429 Too Many Requests`, `stream broke off`). */
  reason: string;
  status?: number;
}

export interface ModelCallUsage {
  promptTokens: number;
  completionTokens: number;
  totalTokens: number;
  /** Retinue counted these tokens itself: the provider reported no usage for the call. */
  estimated?: boolean;
}

/** What a call on a SillyTavern connection profile ran with, as the page reported it. */
export interface CallRanWith {
  model?: string;
  preset?: string;
  sampling: Partial<Record<SamplingField, number | string>>;
  dropped: SamplingField[];
}

export interface ModelCallResult {
  /** The whole assistant turn, tool-call deltas assembled; ready to append to the history. */
  message: ChatCompletionAssistantMessageParam;
  finishReason: string | null;
  usage: ModelCallUsage;
  /**
   * Reasoning, kept apart from the answer: what the provider streamed as `reasoning_content` /
   * `reasoning`, and any `<think>` block the content opened with. Never part of `message`.
   */
  reasoning?: string;
  /** How tools were offered in the call that answered: as `tools`, or rendered into the prompt. */
  toolProtocol?: 'native' | 'prompted';
  /**
   * Set when another model than the client's own answered: a keyed connection's call that the site's
   * budget no longer covered went to the page's own model. Journals and costs name this one.
   */
  answeredBy?: { label: string; pageModel?: string };
}

/** How an endpoint gets tools: `auto` starts native and switches to prompted when they are refused. */
export type ToolProtocolSetting = 'auto' | 'native' | 'prompted';

/**
 * One model endpoint and model, ready to call. Calls stream, retry 429/5xx/network faults a bounded
 * number of times with backoff (honouring Retry-After), then reject with a ProviderError.
 */
export interface ModelClient {
  /** A label for journals and errors (e.g. `connection local · qwen3-8b`, `page model`). */
  readonly label: string;
  /** Set when the calls go to the page's own model: the model the page names ('' when none). */
  readonly pageModel?: string;
  call(request: ModelCallRequest): Promise<ModelCallResult>;
  /**
   * The context window this endpoint and model stated when it last refused a prompt as too long
   * (remembered across runs), so a run trims to fit it before sending.
   */
  contextWindow?(): Promise<LearnedContextWindow | undefined>;
  /** Whether this endpoint and model was seen closing its reasoning with a bare `</think>` (remembered across runs). */
  opensWithBareThink?(): Promise<boolean>;
}

/** Where and how to call: the connection binding, or the page's endpoint through a custom fetch. */
export interface ModelTarget {
  label: string;
  /**
   * Set on the page's own model: the model the page names ('' when none). The side panel names such
   * calls in the reader's language rather than by `label`, which is English for errors and journals.
   */
  pageModel?: string;
  baseURL: string;
  apiKey: string;
  model: string;
  /** The `host` binding relays through the page with this fetch. */
  fetch?: typeof globalThis.fetch;
  /** Extra body fields every call carries (a host's body template: source, custom URL, ...). */
  extraBody?: Record<string, unknown>;
  /** Calls in flight at once through this target. */
  maxConcurrency?: number;
  /**
   * What to tell the user when the endpoint refuses the key (401/403), e.g. `check the API key of
   * connection 'local' in Retinue's options`. Defaults to one built from `label`.
   */
  authAdvice?: string;
  /** How tools are offered (default `auto`). */
  toolProtocol?: ToolProtocolSetting;
  /**
   * For an endpoint that answers in its own shape rather than OpenAI chunks (SillyTavern's Claude and
   * Google sources): calls go non-streamed, in the body this protocol writes, and its reader reads the reply.
   */
  wholeReply?: WholeReplyProtocol;
}

/** How to call an endpoint whose replies are read whole, in a shape of their own. */
export interface WholeReplyProtocol {
  /** The endpoint's name for errors, e.g. `SillyTavern's Claude source`. */
  name: string;
  /** The call's body (an OpenAI chat-completions body) as this endpoint takes it, non-streamed. */
  callBody(body: Record<string, unknown>): Record<string, unknown>;
  /** Reads the endpoint's whole reply text into one assistant turn, or says what was wrong. */
  readReply(text: string): CompletionBodyOutcome;
}
