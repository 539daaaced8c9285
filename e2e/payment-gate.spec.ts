import { setSubscriptionStatus } from './database.ts';
import { expect, newUser, signIn, signUp, test } from './fixtures.ts';

test('SmartBuilder needs an active subscription: without one a modal leads to Pagos', async ({ page }) => {
  const user = newUser();
  await signUp(page, user);
  await expect(page).toHaveURL(/\/home$/);
  await page.goto('/smartbuilder');
  await expect(page.getByRole('heading', { name: 'Smart Builder' })).toBeVisible(); // the trial counts as active

  setSubscriptionStatus(user.email, 'canceled');
  await page.goto('/smartbuilder');
  const modal = page.getByRole('dialog', { name: 'Necesitas una suscripción activa' });
  await expect(modal).toBeVisible();
  await modal.getByRole('button', { name: 'Ver planes' }).click();
  await expect(page).toHaveURL(/\/payments$/);
});

test.describe('inside the desktop app', () => {
  test.use({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36 AutoAsesorDesktop/0.1.0' });

  test('SmartBuilder is not offered and its URL goes back to the start', async ({ page }) => {
    await page.goto('/auth');
    await signIn(page, { email: 'demo@autoasesor.es', password: 'Demo1234!' });
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('navigation').getByRole('link', { name: 'SmartBuilder' })).toHaveCount(0);
    await page.goto('/smartbuilder');
    await expect(page).toHaveURL(/\/home$/);
  });
});
