// No imports: the MAIN-world page hook reads this list too.

/**
 * Chat Completion sources whose replies SillyTavern's page reads as OpenAI chunks
 * (`choices[0].delta.content`, `delta.reasoning_content`) and whose server answers the OpenAI way, so a
 * run can both call the page's model through them and answer the page.
 */
export const OPENAI_SHAPED_SOURCES: readonly string[] = [
  'openai',
  'custom',
  'openrouter',
  'mistralai',
  'groq',
  'deepseek',
  'xai',
  'azure_openai',
  'perplexity',
  'fireworks',
  'electronhub',
  'chutes',
  'nanogpt',
  'aimlapi',
  'pollinations',
  'moonshot',
  'cometapi',
  'zai',
  'siliconflow',
  'workers_ai',
];
