/**
 * What Retinue adds to the page's own prompt for a root agent: its instructions and its tool
 * definitions. Kept small (the built-in root's stays within ROOT_ADDITIONS_BUDGET characters), since
 * every character is taken from the chat's share of the model's context.
 */
import type { AgentProfile } from '../settings/schema';
import { rootPolicy } from './invocation-policy';
import { rootInstructions } from './root-context';
import { toolDefinitions } from './turn-preparation';

/** Characters the built-in root may add: instructions and the JSON of its tool definitions together. */
export const ROOT_ADDITIONS_BUDGET = 3_000;

export interface RootAdditions {
  instructions: string;
  /** The tool definitions as the request carries them (JSON). */
  toolDefinitionsJson: string;
  characters: number;
}

export function rootAdditions(profile: AgentProfile): RootAdditions {
  const policy = rootPolicy(profile);
  const instructions = rootInstructions(profile, policy);
  const toolDefinitionsJson = policy.tools.length === 0 ? '' : JSON.stringify(toolDefinitions(policy.tools));
  return { instructions, toolDefinitionsJson, characters: instructions.length + toolDefinitionsJson.length };
}
