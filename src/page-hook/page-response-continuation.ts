/** The most of a non-streamed answer the page hook hands the bridge (HOST_CALL_CHUNK_MAX_CHARS). */
const MAX_ANSWER_CHARS = 1_000_000;

/**
 * Fail open after a streamed answer already started (DESIGN.md §13): the page holds a 200 SSE response
 * whose first events were Retinue's progress lines (reasoning deltas), so the page's own response is
 * written into that same body. An SSE answer is piped byte for byte here; any other answer (a JSON
 * completion from a server that ignores `stream`, an error) goes to the bridge as text, which writes
 * it as events into the body (src/bridge/pass-through-reply.ts). MAIN-world code: no zod, no
 * extension APIs. Resolves true when the body is complete, false when the bridge writes the rest.
 */
export async function continueStreamWith(
  body: ReadableStreamDefaultController<Uint8Array>,
  pending: Promise<Response>,
  toBridge: (answer: { status: number; text: string }) => void,
): Promise<boolean> {
  try {
    const response = await pending;
    if (response.ok && response.body && String(response.headers.get('content-type')).includes('text/event-stream')) {
      const reader = response.body.getReader();
      for (let read = await reader.read(); !read.done; read = await reader.read()) body.enqueue(read.value);
      body.close();
      return true;
    }
    toBridge({ status: response.status, text: (await response.text()).slice(0, MAX_ANSWER_CHARS) });
    return false;
  } catch (error) {
    body.error(error);
    return true;
  }
}
