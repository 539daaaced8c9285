import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { openScreen, publicPaths, signUpWithEveryArea, signedInPaths } from './screens.ts';

/** axe's serious and critical findings on the page as it stands, one readable line each. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations, passes } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  // A blank or half-drawn page passes nothing: make sure axe looked at a real screen.
  expect(passes.length).toBeGreaterThan(10);
  if (process.env.A11Y_REPORT) console.log(page.url(), violations.map((violation) => `${violation.id}:${violation.impact}`).join(' '));
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map((violation) => `${violation.id} (${violation.impact}): ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

test.describe('accessibility (axe): no serious or critical violations', () => {
  test('on every public screen, signed out', async ({ page }) => {
    const found: Record<string, string[]> = {};
    for (const path of publicPaths) {
      await openScreen(page, path);
      const violations = await seriousViolations(page);
      if (violations.length > 0) found[path] = violations;
    }
    expect(found).toEqual({});
  });

  test('on every screen of the route table, signed in, with the menu drawer open too', async ({ page }) => {
    test.setTimeout(180_000);
    await signUpWithEveryArea(page);
    const found: Record<string, string[]> = {};
    for (const path of signedInPaths) {
      await openScreen(page, path);
      const violations = await seriousViolations(page);
      if (violations.length > 0) found[path] = violations;
    }
    await openScreen(page, '/home');
    await page.getByRole('button', { name: 'Menú' }).click();
    await expect(page.getByRole('dialog', { name: 'Menú de usuario' })).toBeVisible();
    const drawer = await seriousViolations(page);
    if (drawer.length > 0) found['/home + menú'] = drawer;
    expect(found).toEqual({});
  });
});
