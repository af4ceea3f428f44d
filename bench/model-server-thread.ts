/**
 * The children's model server on a thread of its own, as a remote endpoint is: the six answers of a
 * round are written while the runtime reads the first of them, not after it. On the runtime's own
 * thread the server's work (reading each request, writing each stream) queued behind the runtime's
 * and was charged to it; the browser bench has its server in another process for the same reason.
 */
import { Worker } from 'node:worker_threads';

export interface ModelServerThread {
  readonly baseURL: string;
  /** Stops the server and its thread; answers how many requests no script matched. */
  close(): Promise<number>;
}

export async function startChildrenServerThread(rootMarker: string): Promise<ModelServerThread> {
  const worker = new Worker(typeScriptEntry(new URL('./model-server-thread.worker.ts', import.meta.url).href), { eval: true, workerData: { rootMarker } });
  const { baseURL } = await nextMessage<{ baseURL: string }>(worker);
  return {
    baseURL,
    async close() {
      worker.postMessage('close');
      const { unmatched } = await nextMessage<{ unmatched: number }>(worker);
      await worker.terminate();
      return unmatched;
    },
  };
}

/** A thread does not inherit tsx's loader from the bench's process: its entry loads the module through tsx. */
function typeScriptEntry(moduleUrl: string): string {
  const tsx = import.meta.resolve('tsx/esm/api');
  return `import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(moduleUrl)}, ${JSON.stringify(moduleUrl)}));`;
}

function nextMessage<Message>(worker: Worker): Promise<Message> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    worker.once('error', onError);
    worker.once('message', (message: Message) => {
      worker.off('error', onError);
      resolve(message);
    });
  });
}
