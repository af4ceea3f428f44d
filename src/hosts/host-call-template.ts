/**
 * The host call template: how an agent on the `host` binding calls the page's own model. It is the
 * page's chat-turn request (endpoint, headers such as `X-CSRF-Token` or `Authorization`, and the body's
 * model, source, custom URL, sampling ...) with the call's messages, tools and stream flag merged in.
 * It lives in the page hook only: captured headers never leave the page. MAIN-world code: no imports.
 */
export interface HostCallTemplate {
  url: string;
  headers: Record<string, string>;
  /** The page's body without the fields each call brings itself. */
  body: Record<string, unknown>;
}

/** Fields a call always brings (or deliberately leaves out, like the page's own tools). */
const PER_CALL_FIELDS = [
  'messages',
  'tools',
  'tool_choice',
  'functions',
  'function_call',
  'parallel_tool_calls',
  'stream',
  'stream_options',
  'n',
  'logprobs',
  'top_logprobs',
];

/** Captures the template from the page's chat-turn request. */
export function createHostCallTemplate(url: string, headers: Record<string, string>, body: Record<string, unknown>): HostCallTemplate {
  const templateBody: Record<string, unknown> = {};
  for (const key of Object.keys(body)) {
    if (!PER_CALL_FIELDS.includes(key)) templateBody[key] = body[key];
  }
  return { url, headers: { ...headers }, body: templateBody };
}

/**
 * The fetch arguments of one host call: the template's endpoint and headers, its body overlaid with
 * the call's body (an OpenAI chat-completions body from the SDK). An empty `model` in the call keeps
 * the page's model.
 */
export function buildHostCall(template: HostCallTemplate, callBody: Record<string, unknown>): { url: string; init: RequestInit } {
  const body: Record<string, unknown> = { ...template.body, ...callBody };
  if (!callBody.model && template.body.model !== undefined) body.model = template.body.model;
  const headers: Record<string, string> = {};
  for (const key of Object.keys(template.headers)) {
    const lower = key.toLowerCase();
    if (lower !== 'content-length' && lower !== 'content-type') headers[key] = template.headers[key] as string;
  }
  headers['content-type'] = 'application/json';
  return { url: template.url, init: { method: 'POST', headers, body: JSON.stringify(body), credentials: 'same-origin' } };
}
