import type { Page as PlaywrightPage, Worker as PlaywrightWorker } from 'playwright-core';
import type { Page as PuppeteerPage } from 'puppeteer-core';

/**
 * Anything that runs a function in a browser context and hands back its result: a Playwright `Page`
 * or `Worker` (Chromium) or a Puppeteer `Page` (Firefox). Helpers take this so one test body drives
 * both browsers.
 */
export type EvaluatingHandle = PlaywrightPage | PlaywrightWorker | PuppeteerPage;

interface OneArgumentEvaluate {
  evaluate(callback: (argument: unknown) => unknown, argument: unknown): Promise<unknown>;
}

/**
 * Runs `callback(argument)` in the handle's browser context (the argument must be JSON-like).
 * Playwright and Puppeteer both take `evaluate(function, argument)`; only their typings differ.
 *
 * @example
 * const title = await evaluateIn(page, (selector) => document.querySelector(selector)?.textContent, 'h1');
 */
export function evaluateIn<Result, Argument>(
  handle: EvaluatingHandle,
  callback: (argument: Argument) => Result | Promise<Result>,
  argument: Argument,
): Promise<Result> {
  return (handle as unknown as OneArgumentEvaluate).evaluate(callback as (argument: unknown) => unknown, argument) as Promise<Result>;
}

/**
 * Polls `check` until it returns a value other than undefined/false, or throws after `timeoutMs`
 * with `description` in the message (say what was awaited, for a readable failure).
 *
 * @example
 * const reply = await waitUntil(() => page.evaluate(() => window.fixture.lastReply || undefined), {
 *   description: 'a reply in the page',
 * });
 */
export async function waitUntil<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: { description: string; timeoutMs?: number; intervalMs?: number },
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 100));
  }
  throw new Error(
    `Timed out after ${options.timeoutMs ?? 30_000} ms waiting for ${options.description}` +
      (lastError ? ` (last error: ${String(lastError)})` : ''),
  );
}
