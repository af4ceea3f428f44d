import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** axe-core's WCAG 2.1 A and AA rules, run in a Chromium page (the accessibility and review e2e tests). */

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** Experimental in axe, so off by default, but WCAG 2.5.3 (A): a control's name must contain its visible text. */
export const EXTRA_RULES = ['label-content-name-mismatch'];

export interface AxeFinding {
  id: string;
  impact: string | null | undefined;
  help: string;
  targets: string[];
}

/** Runs axe in the page (injected through the debugging protocol, which the page's CSP does not govern). */
export async function axeViolations(page: Page): Promise<{ violations: AxeFinding[]; ran: string[] }> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  return page.evaluate(
    async ({ tags, extraRules }) => {
      const engine = (window as unknown as { axe: typeof axe }).axe;
      const result = await engine.run(document, {
        runOnly: { type: 'tag', values: tags },
        rules: Object.fromEntries(extraRules.map((rule) => [rule, { enabled: true }])),
        resultTypes: ['violations'],
      });
      return {
        violations: result.violations.map((violation) => ({
          id: violation.id,
          impact: violation.impact,
          help: violation.help,
          targets: violation.nodes.map((node) => node.target.join(' ')),
        })),
        ran: [...result.passes, ...result.violations, ...result.incomplete, ...result.inapplicable].map((rule) => rule.id),
      };
    },
    { tags: WCAG_TAGS, extraRules: EXTRA_RULES },
  );
}
