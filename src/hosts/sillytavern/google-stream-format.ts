import { sseEvent, type PageStreamFormat } from '../page-stream-format';

function candidateEvent(part: { text: string; thought?: boolean }, finishReason?: 'STOP'): string {
  return sseEvent({ candidates: [{ content: { role: 'model', parts: [part] }, index: 0, ...(finishReason ? { finishReason } : {}) }] });
}

/** Gemini's own stream events, as SillyTavern's page reads them for these sources. */
export const googleStreamFormat: PageStreamFormat = {
  opening: () => candidateEvent({ text: '' }),
  text: (_identity, text) => candidateEvent({ text }),
  reasoning: (_identity, text) => candidateEvent({ text, thought: true }),
  idle: () => candidateEvent({ text: '' }),
  closing: () => candidateEvent({ text: '' }, 'STOP'),
};
