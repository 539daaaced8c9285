import { expect, newUser, signUp, test } from './fixtures.ts';
import { newestMailedLink } from './mailbox.ts';

test.describe('email validation', () => {
  test('the emailed link validates the email on a device that is not signed in', async ({ page, browser }) => {
    const user = newUser();
    await signUp(page, user);
    await expect(page).toHaveURL(/\/home$/);

    await page.getByRole('button', { name: 'Menú' }).click();
    await page.getByRole('link', { name: 'Mi cuenta' }).click();
    await expect(page.getByText('Email sin validar')).toBeVisible();
    await page.getByRole('button', { name: 'Enviar enlace de validación' }).click();
    await expect(page.getByText(`Te hemos enviado un enlace de validación a ${user.email}.`)).toBeVisible();

    let link: string | undefined;
    await expect.poll(async () => (link = await newestMailedLink(user.email, 'email_validation'))).toBeDefined();

    // Another browser context has no cookies: like opening the mail on a phone.
    const phone = await browser.newContext();
    try {
      const phonePage = await phone.newPage();
      await phonePage.goto(link ?? '');
      await expect(phonePage.getByText(`Tu email ${user.email} está validado.`)).toBeVisible();
      await expect(phonePage.getByRole('link', { name: 'Ir al inicio' })).toBeVisible();
    } finally {
      await phone.close();
    }

    await page.reload();
    await expect(page.getByText('Email validado', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Enviar enlace de validación' })).toHaveCount(0);
  });
});
