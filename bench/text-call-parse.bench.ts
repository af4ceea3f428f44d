/**
 * The text-call parser on adversarial answers (issue 21): its time against a plain scan of the same
 * characters (one `indexOf` pass and one character loop), as a ratio. A linear parser stays within
 * a small constant of the scan whatever the shape; a backtracking one grows with the text.
 */
import { parseTextToolCalls } from '../src/model/text-tool-calls';

const toolNames = ['agent_list', 'agent_delegate'];
const inputs: [string, string][] = [
  ['GLM payload, 4,000 pairs', '<tool_call>agent_list' + '<arg_key>k</arg_key><arg_value>v</arg_value>'.repeat(4_000) + '<arg_key></tool_call>'],
  ['100 KB of spaces', ' '.repeat(100_000) + 'x'],
  ['100 KB of newlines', '\n'.repeat(100_000) + 'x'],
  ['4,000 Hermes calls', '<tool_call>{"name":"agent_list","arguments":{}}</tool_call>\n'.repeat(4_000)],
  ['8,000 Hermes calls (past the cap)', '<tool_call>{"name":"agent_list","arguments":{}}</tool_call>\n'.repeat(8_000)],
  ['50,000 unclosed JSON lines', '\n{'.repeat(50_000)],
  ['8,000 harmony headers, no message', ' to=functions.agent_list'.repeat(8_000)],
  ['9,000 Granite markers closed at the end', '<|tool_call|>{'.repeat(9_000) + ']<tool_call>'.repeat(9_000)],
  ['10,000 Mistral calls', '[TOOL_CALLS]agent_list[ARGS]{"n":1}'.repeat(10_000)],
];

function plainScan(text: string): number {
  let count = text.indexOf('\u0000') === -1 ? 0 : 1;
  for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) === 60) count += 1;
  return count;
}

/** Best of several runs, in milliseconds. */
function best(run: () => unknown, rounds = 7): number {
  let fastest = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round += 1) {
    const start = performance.now();
    run();
    fastest = Math.min(fastest, performance.now() - start);
  }
  return fastest;
}

for (const [, text] of inputs) parseTextToolCalls(text, { toolNames });
console.log('Text-call parsing of adversarial answers, against a plain scan of the same characters:');
for (const [what, text] of inputs) {
  const parse = best(() => parseTextToolCalls(text, { toolNames }));
  const scan = best(() => plainScan(text));
  const kb = (text.length / 1024).toFixed(0).padStart(4);
  console.log(`  ${what.padEnd(36)} ${kb} KB  parse ${parse.toFixed(2).padStart(7)} ms  scan ${scan.toFixed(2).padStart(6)} ms  ×${(parse / Math.max(scan, 0.001)).toFixed(0)}`);
}
