import { expect, newUser, signIn, signUp, test } from './fixtures.ts';
import { newestMailedLink } from './mailbox.ts';

test.describe('password reset', () => {
  test('the emailed link sets a new password; the old one stops working and the link is single-use', async ({ page, browser }) => {
    const user = newUser();
    await signUp(page, user);
    await expect(page).toHaveURL(/\/home$/);

    // Forgotten password, from a browser that is not signed in.
    const other = await browser.newContext();
    try {
      const guest = await other.newPage();
      await guest.goto('/auth');
      await guest.getByRole('link', { name: '¿Has olvidado tu contraseña?' }).click();
      await guest.getByLabel('Email').fill(user.email);
      await guest.getByRole('button', { name: 'Enviar enlace' }).click();
      await expect(guest.getByText(`Si existe una cuenta para ${user.email}, te hemos enviado un enlace para restablecer la contraseña.`)).toBeVisible();

      let link: string | undefined;
      await expect.poll(async () => (link = await newestMailedLink(user.email, 'reset_password'))).toBeDefined();
      await guest.goto(link ?? '');
      await guest.getByLabel('Nueva contraseña', { exact: true }).fill('Distinta456?');
      await guest.getByRole('button', { name: 'Guardar contraseña' }).click();
      await expect(guest.getByText('Contraseña actualizada. Ya puedes iniciar sesión.')).toBeVisible();

      // The link cannot be used twice.
      await guest.goto(link ?? '');
      await expect(guest.getByText('El enlace no es válido o ha caducado. Pide uno nuevo.')).toBeVisible();
    } finally {
      await other.close();
    }

    // Changing the password signed out every session, including the first browser's.
    await page.reload();
    await expect(page).toHaveURL(/\/auth/);
    await signIn(page, user);
    await expect(page.getByText('Email o contraseña incorrectos')).toBeVisible();
    await signIn(page, { email: user.email, password: 'Distinta456?' });
    await expect(page).toHaveURL(/\/home$/);
  });

  test('asking for a link never tells whether an account exists', async ({ page }) => {
    await page.goto('/auth/reset');
    await page.getByLabel('Email').fill('nadie@ninguna-asesoria.es');
    await page.getByRole('button', { name: 'Enviar enlace' }).click();
    await expect(page.getByText('Si existe una cuenta para nadie@ninguna-asesoria.es, te hemos enviado un enlace para restablecer la contraseña.')).toBeVisible();
  });
});

test('profile: a new name shows in the greeting at once and after a reload', async ({ page }) => {
  const user = newUser();
  await signUp(page, user);
  await page.getByRole('button', { name: 'Menú' }).click();
  await page.getByRole('link', { name: 'Mi cuenta' }).click();
  await page.getByLabel('Nombre', { exact: true }).fill('Marta Ruiz Soler');
  await page.getByRole('button', { name: 'Guardar' }).first().click();
  await expect(page.getByText('Datos guardados')).toBeVisible();
  await expect(page.getByRole('banner').getByText('Hola, Marta Ruiz Soler')).toBeVisible();
  await page.reload();
  await expect(page.getByRole('banner').getByText('Hola, Marta Ruiz Soler')).toBeVisible();
});
