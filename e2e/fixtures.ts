import { test as base, expect, type Page } from '@playwright/test';
import { createHash, randomUUID } from 'node:crypto';

/** baseURL comes from the global setup, which picks a free port at run time. */
export const test = base.extend({
  // Playwright reads fixture dependencies from the destructuring pattern, so it must be there even empty.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => {
    const url = process.env.E2E_BASE_URL;
    if (!url) throw new Error('E2E_BASE_URL is not set: run through playwright.config.ts (global setup).');
    await use(url);
  },
});
export { expect };

export interface NewUser {
  name: string;
  email: string;
  password: string;
}

export function newUser(): NewUser {
  return { name: 'Marta Ruiz', email: `marta.${randomUUID().slice(0, 8)}@asesoria-e2e.es`, password: 'Segura123!' };
}

export async function signUp(page: Page, user: NewUser): Promise<void> {
  await page.goto('/auth/signup');
  await page.getByLabel('Nombre').fill(user.name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Contraseña').fill(user.password);
  await page.getByRole('button', { name: 'Crear cuenta' }).click();
  // Signed up once the app has left the auth screen (the session cookies are set by then).
  await page.waitForURL((url) => !url.pathname.startsWith('/auth'));
}

export async function signIn(page: Page, user: Pick<NewUser, 'email' | 'password'>): Promise<void> {
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Contraseña').fill(user.password);
  await page.getByRole('button', { name: 'Iniciar sesión' }).click();
}

/** An office PC of the firm, as its first certificate sync registers it; its id. */
export async function officePc(page: Page, name: string): Promise<string> {
  const synced = await page.request.post(`/api/certificates?machineName=${encodeURIComponent(name)}`, {
    data: { machineHashCode: createHash('sha256').update(`${name}:${randomUUID()}`).digest('hex'), digitalCertificates: [] },
  });
  expect([200, 201], await synced.text()).toContain(synced.status());
  const { items } = (await (await page.request.get('/api/machines')).json()) as { items: { _id: string; savedAs: string; name: string }[] };
  const machine = items.find((item) => item.name === name || item.savedAs === name);
  if (!machine) throw new Error(`The machine ${name} was not registered`);
  return machine._id;
}

/**
 * The launcher's 'Programar' for tomorrow at 23:59 (never already gone whenever the test runs): the
 * scheduler dialog, then its confirmation toast. Leaves the dialog closed.
 */
export async function scheduleTomorrowNight(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Programar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Elige fecha y hora' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(/^Hora/).fill('23');
  await dialog.getByLabel(/^Minutos/).fill('59');
  const tomorrow = new Date(Date.now() + 24 * 3_600_000);
  const day = new Intl.DateTimeFormat('es-ES', { timeZone: 'Europe/Madrid', day: 'numeric', month: 'long', year: 'numeric' }).format(tomorrow);
  // 'jueves, 4 de diciembre de 2025': anchored, so the 4th is not the 14th or the 24th.
  const tomorrowButton = dialog.getByRole('button', { name: new RegExp(`^[^,]+, ${day}(,|$)`) });
  if (!(await tomorrowButton.isVisible())) await dialog.getByRole('button', { name: 'Mes siguiente' }).click();
  await tomorrowButton.click();
  await dialog.getByRole('button', { name: 'Programar tarea' }).click();
  await expect(page.getByText(/^Robot programado para el \d{2}\/\d{2}\/\d{4} 23:59$/)).toBeVisible();
  await expect(dialog).toBeHidden();
}
