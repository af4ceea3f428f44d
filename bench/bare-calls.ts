/**
 * The children's model calls made bare, with no runtime: the openai SDK alone sends each child's
 * three rounds (the worker's system prompt, then one more tool call and result a round) to the same
 * server, one call at a time and six at once. What six at once gains here is the most any runtime
 * could gain on this machine with this HTTP client and server: the floor `runtime` (a) is read against.
 */
import OpenAI from 'openai';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import { benchWorkerProfile, CHILD_ROUNDS, CHILDREN } from './children-workload';

export interface BareCallTimes {
  /** Every child's rounds one call after another, ms. */
  oneAtATime: number;
  /** The children's rounds six at once, each child's in turn, ms. */
  allAtOnce: number;
}

/** A child's request at `round` (from 0): the history it would have sent by then. */
function childMessages(round: number): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [
    { role: 'system', content: benchWorkerProfile.systemPrompt },
    { role: 'user', content: 'Part 1: take notes, then return.' },
  ];
  for (let done = 0; done < round; done += 1) {
    const id = `call-${done}`;
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'workspace_write', arguments: JSON.stringify({ path: `scratch/note-${done}.md`, content: 'A note.' }) } }] });
    messages.push({ role: 'tool', tool_call_id: id, content: `Wrote scratch/note-${done}.md.` });
  }
  return messages;
}

const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = ['workspace_write', 'task_return'].map((name) => ({
  type: 'function',
  function: { name, description: `${name}.`, parameters: { type: 'object', properties: {} } },
}));

/** One child's whole task: its rounds in turn, each streamed and read to the end. */
async function child(client: OpenAI): Promise<void> {
  for (let round = 0; round < CHILD_ROUNDS; round += 1) {
    const stream = await client.chat.completions.create({ model: 'scripted-model', messages: childMessages(round), tools, stream: true, stream_options: { include_usage: true } });
    for await (const chunk of stream) void chunk;
  }
}

/** Times the children's calls made bare, both ways, once. */
export async function timeBareCalls(baseURL: string): Promise<BareCallTimes> {
  const client = new OpenAI({ baseURL, apiKey: 'bench', maxRetries: 0 });
  let started = performance.now();
  for (let index = 0; index < CHILDREN; index += 1) await child(client);
  const oneAtATime = performance.now() - started;
  started = performance.now();
  await Promise.all(Array.from({ length: CHILDREN }, () => child(client)));
  return { oneAtATime, allAtOnce: performance.now() - started };
}
