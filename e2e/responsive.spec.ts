import { expect, test } from './fixtures.ts';
import { openScreen, signUpWithEveryArea } from './screens.ts';

// Sideways scrolling of every screen at each width is checked by the sweep in screens.spec.ts.

test.describe('at 390 px', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the top bar is one line and the navigation lives in a drawer that keyboard and backdrop close', async ({ page }) => {
    const user = await signUpWithEveryArea(page);
    await openScreen(page, '/home');
    const topBar = page.getByRole('banner');
    expect((await topBar.boundingBox())?.height).toBeLessThanOrEqual(60);
    await expect(topBar.getByText(`Hola, ${user.name}`)).toBeHidden();
    await expect(page.getByRole('navigation', { name: 'Navegación principal' })).toBeHidden();

    // Keyboard: the menu button opens the drawer with focus inside, Tab stays inside, Escape closes and returns focus.
    const menu = page.getByRole('button', { name: 'Menú' });
    await menu.focus();
    await page.keyboard.press('Enter');
    const drawer = page.getByRole('dialog', { name: 'Menú de usuario' });
    await expect(drawer).toBeVisible();
    await expect(drawer.getByRole('navigation', { name: 'Navegación principal' })).toBeVisible();
    for (let step = 0; step < 25; step += 1) {
      await page.keyboard.press('Tab');
      expect(await drawer.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
    await expect(menu).toBeFocused();

    // Backdrop: a tap outside the panel closes it.
    await menu.click();
    await expect(drawer).toBeVisible();
    await page.mouse.click(380, 420);
    await expect(drawer).toBeHidden();

    // A destination chosen in the drawer opens and closes the drawer.
    await menu.click();
    await drawer.getByRole('link', { name: 'Ayuda' }).click();
    await expect(page).toHaveURL(/\/help$/);
    await expect(drawer).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Ayuda' })).toBeVisible();
  });
});

test.describe('at 1366 px', () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test('the navigation sits beside the page and its active item keeps its size', async ({ page }) => {
    await signUpWithEveryArea(page);
    await openScreen(page, '/home');
    const navigation = page.getByRole('navigation', { name: 'Navegación principal' });
    await expect(navigation).toBeVisible();
    const help = navigation.getByRole('link', { name: 'Ayuda' });
    const before = await help.boundingBox();
    await help.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Ayuda' })).toBeVisible();
    await expect(help).toHaveClass(/active/);
    expect(await help.boundingBox()).toEqual(before);
  });
});
