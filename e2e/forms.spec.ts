import type { Locator, Page } from '@playwright/test';
import { expect, newUser, signUp, test } from './fixtures.ts';

const BAD_EMAIL = 'Introduce una dirección de correo electrónico válida';

async function box(locator: Locator) {
  const rect = await locator.boundingBox();
  if (!rect) throw new Error('the element has no box');
  return rect;
}

/** Records whether the sign-in form was ever in the page, from the first script on. */
async function watchForSignInForm(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const flags = window as unknown as { sawSignInForm?: boolean };
    const look = () => {
      if (document.querySelector('input[autocomplete="current-password"]')) flags.sawSignInForm = true;
    };
    new MutationObserver(look).observe(document, { childList: true, subtree: true });
  });
}
const sawSignInForm = (page: Page) => page.evaluate(() => (window as unknown as { sawSignInForm?: boolean }).sawSignInForm === true);

for (const viewport of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
  test.describe(`forms at ${viewport.width} px`, () => {
    test.use({ viewport });

    test('sign-up: after fixing a field error, one click on Crear cuenta creates the account, and the button never moves', async ({ page }) => {
      const user = newUser();
      await page.goto('/auth/signup');
      const button = page.getByRole('button', { name: 'Crear cuenta' });
      const email = page.getByLabel('Email');
      await page.getByLabel('Nombre').fill(user.name);
      await page.getByLabel('Contraseña').fill(user.password);
      const before = await box(button);

      await email.fill('marta@');
      await email.blur();
      await expect(page.getByText(BAD_EMAIL)).toBeVisible();
      expect(await box(button)).toEqual(before);

      // The fix is typed with the focus still in the field: the click that follows blurs it.
      await email.fill(user.email);
      await expect(page.getByText(BAD_EMAIL)).toHaveCount(0);
      await expect(email).toBeFocused();
      expect(await box(button)).toEqual(before);

      const sent: string[] = [];
      page.on('request', (request) => {
        if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/users') sent.push(request.url());
      });
      await button.click();
      await page.waitForURL((url) => !url.pathname.startsWith('/auth'));
      expect(sent).toHaveLength(1);
      await expect(page).toHaveURL(/\/home$/);
    });

    test('sign-in: an error appearing on blur or on submit does not move the button', async ({ page }) => {
      await page.goto('/auth');
      const button = page.getByRole('button', { name: 'Iniciar sesión' });
      const before = await box(button);
      await page.getByLabel('Email').fill('nadie');
      await page.getByLabel('Email').blur();
      await expect(page.getByText(BAD_EMAIL)).toBeVisible();
      expect(await box(button)).toEqual(before);
      await button.click();
      await expect(page.getByText('Este campo es obligatorio')).toBeVisible();
      expect(await box(button)).toEqual(before);
      // The invalid submit focuses the first field in error.
      await expect(page.getByLabel('Email')).toBeFocused();
    });

    test('Mi cuenta: the password change works on the first click after fixing the new password, and its button never moves', async ({ page }) => {
      const user = newUser();
      await signUp(page, user);
      await page.goto('/userprofile');
      const button = page.getByRole('button', { name: 'Cambiar contraseña' });
      const fresh = page.getByLabel('Nueva contraseña');
      await page.getByLabel('Contraseña actual').fill(user.password);
      const before = await box(button);

      // The password rule's message is the longest the app shows: two or three lines at 390 px.
      await fresh.fill('corta');
      await fresh.blur();
      await expect(page.getByText(/La contraseña debe incluir al menos 8 caracteres/)).toBeVisible();
      expect(await box(button)).toEqual(before);

      await fresh.fill('Otra#Clave2026');
      await expect(page.getByText(/La contraseña debe incluir al menos 8 caracteres/)).toHaveCount(0);
      expect(await box(button)).toEqual(before);
      await button.click();
      await expect(page.getByText('Contraseña cambiada')).toBeVisible();
    });
  });
}

test('a signed-in user who opens /auth, /auth/signup or /login is sent to Home without seeing the sign-in form', async ({ page }) => {
  await signUp(page, newUser());
  await watchForSignInForm(page);
  for (const path of ['/auth', '/auth/signup', '/login']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('banner')).toBeVisible();
    expect(await sawSignInForm(page), path).toBe(false);
  }
  // After logging out, /auth shows the form again.
  await page.getByRole('button', { name: 'Menú' }).click();
  await page.getByRole('button', { name: 'Cerrar sesión' }).click();
  await page.goto('/login');
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('button', { name: 'Iniciar sesión' })).toBeVisible();
});
