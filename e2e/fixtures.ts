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
