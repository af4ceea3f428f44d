import { z } from 'zod';
import { trimEndOf } from '../../text-edges';

const modelsResponseSchema = z.object({ data: z.array(z.object({ id: z.string() }).loose()).max(5_000) }).loose();

export type ModelListing = { ok: true; models: string[] } | { ok: false; message: string };

/**
 * Lists the models of an OpenAI-compatible endpoint (`GET <baseURL>/models` with the key), or says in
 * words why it could not.
 */
export async function listEndpointModels(options: { baseURL: string; apiKey: string; fetch: typeof fetch; signal?: AbortSignal }): Promise<ModelListing> {
  const url = `${trimEndOf(options.baseURL, '/')}/models`;
  let response: Response;
  try {
    response = await options.fetch(url, {
      headers: options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {},
      signal: options.signal ?? AbortSignal.timeout(15_000),
    });
  } catch (error) {
    return {
      ok: false,
      message: `Could not reach ${url} (${error instanceof Error ? error.message : String(error)}). Check the base URL, that the server is running, and that Retinue was allowed to access it.`,
    };
  }
  if (response.status === 401 || response.status === 403) {
    return { ok: false, message: `The endpoint refused the API key (HTTP ${response.status}). Check the key.` };
  }
  if (response.status === 404) {
    return { ok: false, message: `${url} was not found (HTTP 404). The base URL usually ends in /v1.` };
  }
  if (!response.ok) {
    const body = (await response.text().catch(() => '')).slice(0, 300);
    return { ok: false, message: `The endpoint answered HTTP ${response.status}${body ? `: ${body}` : ''}.` };
  }
  let parsed: unknown;
  try {
    parsed = await response.json();
  } catch {
    return { ok: false, message: `${url} did not answer with JSON; is this an OpenAI-compatible endpoint?` };
  }
  const result = modelsResponseSchema.safeParse(parsed);
  if (!result.success) return { ok: false, message: `${url} answered, but not with a model list ({"data": [{"id": ...}]}).` };
  return { ok: true, models: result.data.data.map((model) => model.id) };
}
