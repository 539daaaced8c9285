import Database from 'better-sqlite3';
import type { Page } from '@playwright/test';
import { routes, type AppRoute } from '../renderer/app/routes.ts';
import { newUser, signUp, type NewUser } from './fixtures.ts';

/** A URL that opens the route: required parameters get a sample value, optional ones are left out. */
export function samplePath(route: AppRoute): string {
  const segments = route.path.split('/').filter((segment) => segment !== '' && !segment.endsWith('?'));
  return `/${segments.map((segment) => (segment.startsWith(':') ? 'muestra' : segment)).join('/')}`;
}

/** Every screen of the route table (redirects and the debug route lead elsewhere), plus not-found. */
const screens = routes.filter((route) => !route.redirectTo && !route.meta.debug);
export const publicPaths = [...screens.filter((route) => !route.meta.requiresAuth).map(samplePath), '/auth/signup', '/auth/reset', '/no-existe'];
export const signedInPaths = [...screens.map(samplePath).filter((path) => !path.startsWith('/auth')), '/no-existe'];

/** Lets the user's group open the routes its config must list (Gestor documental, Frumecar). */
export function allowConfigRoutes(email: string): void {
  const file = process.env.E2E_DATABASE_FILE;
  if (!file) throw new Error('E2E_DATABASE_FILE is not set: run through playwright.config.ts (global setup).');
  const db = new Database(file);
  try {
    const { group_id: groupId } = db.prepare('select group_id from users where email = ?').get(email) as { group_id: string };
    const { config } = db.prepare('select config from groups where id = ?').get(groupId) as { config: string };
    const allowed = routes.map((route) => route.path).filter((path) => path === '/documanager' || path === '/frumecar');
    db.prepare('update groups set config = ? where id = ?').run(JSON.stringify({ ...(JSON.parse(config) as object), allowed_routes: allowed }), groupId);
  } finally {
    db.close();
  }
}

/** A new account that may open every area; the page is left signed in. */
export async function signUpWithEveryArea(page: Page): Promise<NewUser> {
  const user = newUser();
  await signUp(page, user);
  allowConfigRoutes(user.email);
  return user;
}

/** Opens a path and waits until the lazily loaded screen has drawn its first heading. */
export async function openScreen(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await page.locator('h1').first().waitFor({ state: 'attached' });
  await page.waitForLoadState('networkidle');
}
