import { afterAll, beforeAll, describe, test } from 'vitest';
import { importDisguisedWriterWithConfirmation } from './agent-import-scenarios';
import { launchChromiumWithExtension, type ChromiumWithExtension } from './support/chromium';

let chromium: ChromiumWithExtension;

beforeAll(async () => {
  chromium = await launchChromiumWithExtension();
});
afterAll(async () => {
  await chromium?.close();
});

describe('Chromium: importing agent files', () => {
  test('a file replacing the writer is previewed and saved only after its confirmation', async () => {
    await importDisguisedWriterWithConfirmation(await chromium.openExtensionPage('options.html'));
  });
});
