import { setHiddenRoutes } from './database.ts';
import { expect, newUser, signUp, test } from './fixtures.ts';

test('a hidden route redirects to the start and vanishes from the menus', async ({ page }) => {
  const user = newUser();
  await signUp(page, user);
  await expect(page).toHaveURL(/\/home$/);
  const navigation = page.getByRole('navigation');
  await expect(navigation.getByRole('link', { name: 'Procesador FIE' })).toBeVisible();

  setHiddenRoutes(user.email, ['/fie', '/payments']);
  await page.goto('/fie');
  await expect(page).toHaveURL(/\/home$/);
  await expect(navigation.getByRole('link', { name: 'Procesador FIE' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Menú' }).click();
  await expect(page.getByRole('link', { name: 'Mi cuenta' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Pagos', exact: true })).toHaveCount(0);
});
