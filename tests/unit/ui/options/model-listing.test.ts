import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { listEndpointModels } from '../../../../src/ui/options/model-listing';

let server: Server | undefined;

async function serve(handler: (request: { url?: string; authorization?: string }) => { status: number; body: string }): Promise<string> {
  server = createServer((request, response) => {
    const answer = handler({ url: request.url, authorization: request.headers.authorization });
    response.writeHead(answer.status, { 'content-type': 'application/json' });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

afterEach(async () => {
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  server = undefined;
});

describe('listEndpointModels', () => {
  it('lists the models of an OpenAI-compatible endpoint, sending the key', async () => {
    const seen: Array<string | undefined> = [];
    const baseURL = await serve(({ url, authorization }) => {
      seen.push(`${url} ${authorization}`);
      return { status: 200, body: JSON.stringify({ object: 'list', data: [{ id: 'qwen3-8b', object: 'model' }, { id: 'llama-3' }] }) };
    });

    const listing = await listEndpointModels({ baseURL: `${baseURL}/`, apiKey: 'sk-test', fetch });

    expect(listing).toEqual({ ok: true, models: ['qwen3-8b', 'llama-3'] });
    expect(seen).toEqual(['/v1/models Bearer sk-test']);
  });

  it('says the key was refused on 401', async () => {
    const baseURL = await serve(() => ({ status: 401, body: '{"error":{"message":"bad key"}}' }));

    const listing = await listEndpointModels({ baseURL, apiKey: 'wrong', fetch });

    expect(listing).toEqual({ ok: false, message: 'The endpoint refused the API key (HTTP 401). Check the key.' });
  });

  it('says the base URL is probably wrong on 404, and what it usually ends with', async () => {
    const baseURL = await serve(() => ({ status: 404, body: 'not found' }));

    const listing = await listEndpointModels({ baseURL: baseURL.replace('/v1', ''), apiKey: '', fetch });

    expect(listing.ok).toBe(false);
    expect(!listing.ok && listing.message).toContain('/v1');
  });

  it('says the answer is no model list when it is not one', async () => {
    const baseURL = await serve(() => ({ status: 200, body: '{"models": "none"}' }));

    const listing = await listEndpointModels({ baseURL, apiKey: '', fetch });

    expect(!listing.ok && listing.message).toContain('not with a model list');
  });

  it('says the endpoint could not be reached when nothing listens', async () => {
    const baseURL = await serve(() => ({ status: 200, body: '{}' }));
    await new Promise((resolve) => server!.close(resolve));
    server = undefined;

    const listing = await listEndpointModels({ baseURL, apiKey: '', fetch });

    expect(!listing.ok && listing.message).toMatch(/^Could not reach .*\/v1\/models/);
  });
});
