/**
 * What the page hook knows about a request when it asks an adapter whether it is a chat turn.
 * Shared by the MAIN world and the extension side; type-only, so it costs the page hook nothing.
 */
export interface ChatTurnRequest {
  method: string;
  /** Absolute URL. */
  url: string;
  /** The JSON body, already parsed; undefined when the body is not JSON text. */
  body: unknown;
}

/** The host adapters Retinue ships. */
export type HostAdapterId = 'openai-chat' | 'sillytavern';
