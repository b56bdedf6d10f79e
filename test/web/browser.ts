import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's chromium: Playwright's own browser download cannot be reached here. */
export const CHROMIUM = '/usr/bin/chromium';

/** Why the browser tests cannot run here, or false. In CI a missing browser is a failure. */
export const browserSkip = (): string | false =>
  existsSync(CHROMIUM) || process.env.CI === 'true'
    ? false
    : `no ${CHROMIUM} (apt-get install chromium); the browser tests are skipped`;

export const launch = (): Promise<Browser> =>
  chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });

const axePath = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

type Violation = { id: string; impact: string | null; help: string; nodes: { target: unknown }[] };

/** The serious and critical axe violations of the page as it is now. */
export const axeViolations = async (page: Page): Promise<Violation[]> => {
  await page.addScriptTag({ path: axePath });
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Violation[] }> } })
      .axe;
    return (await axe.run()).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
};
