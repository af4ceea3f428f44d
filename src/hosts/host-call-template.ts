/**
 * How an agent on the `host` binding calls the page's own model: the page's chat-turn request
 * (endpoint, headers such as `X-CSRF-Token` or `Authorization`, and the body's model, source, custom
 * URL, sampling ...) with the call's messages, tools and stream flag merged in. The bridge builds the
 * body from the turn's body ({@link hostCallTemplateBody}, {@link hostCallBody}); the page hook adds
 * the endpoint and headers ({@link hostCallInit}), which never leave the page. No imports: the
 * MAIN-world page hook uses {@link hostCallInit}.
 */

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

/** The page's chat-turn body without the fields each call brings itself. */
export function hostCallTemplateBody(pageBody: Record<string, unknown>): Record<string, unknown> {
  const templateBody: Record<string, unknown> = {};
  for (const key of Object.keys(pageBody)) {
    if (!PER_CALL_FIELDS.includes(key)) templateBody[key] = pageBody[key];
  }
  return templateBody;
}

/**
 * The body of one host call: the template's body overlaid with the call's (an OpenAI
 * chat-completions body from the SDK). An empty `model` in the call keeps the template's model.
 */
export function hostCallBody(templateBody: Record<string, unknown>, callBody: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...templateBody, ...callBody };
  if (!callBody.model && templateBody.model !== undefined) body.model = templateBody.model;
  return body;
}

/** The fetch options of one host call: the page's headers (without its length and type) and the body as JSON. */
export function hostCallInit(pageHeaders: Record<string, string>, body: Record<string, unknown>): RequestInit {
  const headers: Record<string, string> = {};
  for (const key in pageHeaders) if (!/^content-(length|type)$/i.test(key)) headers[key] = pageHeaders[key] as string;
  headers['content-type'] = 'application/json';
  return { method: 'POST', headers, body: JSON.stringify(body), credentials: 'same-origin' };
}
