/**
 * The scripted model server in a thread of its own (see model-server-thread.ts): it serves the
 * children's workload, the root told apart by the marker it is given.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startScriptedModelServer } from '../tests/support/scripted-model-server';
import { scriptChildrenWorkload } from './children-workload';

const { rootMarker } = workerData as { rootMarker: string };
const server = await startScriptedModelServer();
scriptChildrenWorkload(server, (request) => request.systemText.includes(rootMarker));
parentPort?.postMessage({ baseURL: server.baseURL });
parentPort?.once('message', () => {
  void server.close().then(() => parentPort?.postMessage({ closed: true, unmatched: server.unmatched.length }));
});
