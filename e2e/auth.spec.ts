import { expect, newUser, signIn, signUp, test } from './fixtures.ts';

test.describe('accounts', () => {
  test('sign up lands on Home with the greeting and the trial balance', async ({ page }) => {
    const user = newUser();
    await signUp(page, user);
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByRole('banner').getByText(`Hola, ${user.name}`)).toBeVisible();
    // A new firm starts on the trial: its credits show, its plan name does not (spec: active and not trialing).
    await expect(page.getByRole('link', { name: /500 slans/ })).toBeVisible();
    await expect(page.getByRole('banner').getByText('Prueba')).toHaveCount(0);
  });

  test('sign in shows the plan in the top bar, logout returns to Auth and protects Home again', async ({ page }) => {
    await page.goto('/auth');
    await signIn(page, { email: 'demo@autoasesor.es', password: 'Demo1234!' });
    await expect(page).toHaveURL(/\/home$/);
    const topBar = page.getByRole('banner');
    await expect(topBar.getByText('Hola, Laura Gómez')).toBeVisible();
    await expect(topBar.getByText('Profesional')).toBeVisible();
    await expect(topBar.getByRole('link', { name: /8\.750 slans/ })).toBeVisible();

    await page.getByRole('button', { name: 'Menú' }).click();
    await expect(page.getByText('demo@autoasesor.es')).toBeVisible();
    await page.getByRole('button', { name: 'Cerrar sesión' }).click();
    await expect(page).toHaveURL(/\/auth/);

    await page.goto('/home');
    await expect(page).toHaveURL(/\/auth/);
    await expect(page.getByRole('button', { name: 'Iniciar sesión' })).toBeVisible();
  });

  test('a wrong password is refused with a Spanish message', async ({ page }) => {
    await page.goto('/auth');
    await signIn(page, { email: 'demo@autoasesor.es', password: 'NoEsLaBuena1!' });
    await expect(page.getByText('Email o contraseña incorrectos')).toBeVisible();
    await expect(page).toHaveURL(/\/auth/);
  });

  test('sign-up fields are validated before anything is sent', async ({ page }) => {
    await page.goto('/auth/signup');
    await page.getByLabel('Email').fill('no-es-un-email');
    await page.getByLabel('Contraseña').fill('corta');
    await page.getByRole('button', { name: 'Crear cuenta' }).click();
    await expect(page.getByText('Este campo es obligatorio')).toBeVisible();
    await expect(page.getByText('Introduce una dirección de correo electrónico válida')).toBeVisible();
    await expect(page.getByText(/La contraseña debe incluir al menos 8 caracteres/)).toBeVisible();
  });
});

test.describe('route guard', () => {
  test('a protected URL while signed out goes to Auth and comes back after sign in', async ({ page }) => {
    await page.goto('/fie');
    await expect(page).toHaveURL(/\/auth/);
    await signIn(page, { email: 'demo@autoasesor.es', password: 'Demo1234!' });
    await expect(page).toHaveURL(/\/fie$/);
    await expect(page.getByRole('heading', { name: 'Procesador FIE' })).toBeVisible();
  });

  test('an unknown path shows the not-found page', async ({ page }) => {
    await page.goto('/esto-no-existe');
    await expect(page.getByRole('heading', { name: 'Página no encontrada' })).toBeVisible();
  });

  test('/ and /login redirect', async ({ page }) => {
    await page.goto('/login');
    await expect(page).toHaveURL(/\/auth/);
    await page.goto('/');
    await expect(page).toHaveURL(/\/auth/);
  });
});
