import { setUsedCredits } from './database.ts';
import { expect, newUser, signUp, test } from './fixtures.ts';

test('the credit banner warns from 90 % of the plan, turns into an alert at 100 % and leads to Pagos', async ({ page }) => {
  const user = newUser();
  await signUp(page, user);
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByText(/Has consumido el/)).toHaveCount(0);

  setUsedCredits(user.email, 460); // of the trial's 500
  await page.reload();
  await expect(page.getByRole('status').filter({ hasText: 'Has consumido el 92 % de tus créditos de este periodo.' })).toBeVisible();
  await expect(page.getByRole('link', { name: /40 slans/ })).toBeVisible();

  setUsedCredits(user.email, 520);
  await page.reload();
  const alert = page.getByRole('alert').filter({ hasText: 'Has agotado los créditos de tu plan.' });
  await expect(alert).toBeVisible();
  await expect(page.getByRole('link', { name: /0 slans/ })).toBeVisible(); // the balance never goes below 0
  await alert.getByRole('button', { name: 'Ver planes' }).click();
  await expect(page).toHaveURL(/\/payments$/);
  await expect(page.getByRole('heading', { name: 'Pagos' })).toBeVisible();
});
