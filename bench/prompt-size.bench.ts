/**
 * What the built-in root adds to the page's own prompt on every call: its instructions and the JSON
 * of its tool definitions, in characters and in tokens (o200k_base, the GPT-4o tokenizer; other
 * models' tokenizers differ a little). Not a timing: a size to watch.
 */
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { rootProfile } from '../src/profiles/built-in/root';
import { ROOT_ADDITIONS_BUDGET, rootAdditions } from '../src/runtime/root-additions';
import { profileSchema } from '../src/settings/schema';

const additions = rootAdditions(profileSchema.parse(rootProfile));
const rows: [string, string][] = [
  ['instructions', additions.instructions],
  ['tool definitions (JSON)', additions.toolDefinitionsJson],
  ['together', additions.instructions + additions.toolDefinitionsJson],
];
console.log("The built-in root's additions to the page's prompt:");
for (const [what, text] of rows) {
  console.log(`  ${what.padEnd(24)} ${String(text.length).padStart(6)} characters  ${String(countTokens(text)).padStart(5)} tokens (o200k_base)`);
}
console.log(`  budget                   ${String(ROOT_ADDITIONS_BUDGET).padStart(6)} characters`);
