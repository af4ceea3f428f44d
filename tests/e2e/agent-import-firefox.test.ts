import { afterAll, beforeAll, describe, test } from 'vitest';
import { importDisguisedWriterWithConfirmation } from './agent-import-scenarios';
import { launchFirefoxWithExtension, type FirefoxWithExtension } from './support/firefox';

let firefox: FirefoxWithExtension;

beforeAll(async () => {
  firefox = await launchFirefoxWithExtension();
});
afterAll(async () => {
  await firefox?.close();
});

describe('Firefox: importing agent files', () => {
  test('a file replacing the writer is previewed and saved only after its confirmation', async () => {
    await importDisguisedWriterWithConfirmation(await firefox.openExtensionPage('options.html'));
  });
});
