import Database from 'better-sqlite3';
import { expect, newUser, signUp, test } from './fixtures.ts';

/** Group settings have no screen yet, so the test sets hidden_routes in the database, as an operator would. */
function hideRoutesFor(email: string, hiddenRoutes: string[]) {
  const file = process.env.E2E_DATABASE_FILE;
  if (!file) throw new Error('E2E_DATABASE_FILE is not set');
  const db = new Database(file);
  try {
    const { group_id: groupId } = db.prepare('select group_id from users where email = ?').get(email) as { group_id: string };
    const { config } = db.prepare('select config from groups where id = ?').get(groupId) as { config: string };
    const updated = { ...(JSON.parse(config) as object), hidden_routes: hiddenRoutes };
    db.prepare('update groups set config = ? where id = ?').run(JSON.stringify(updated), groupId);
  } finally {
    db.close();
  }
}

test('a hidden route redirects to the start and vanishes from the menus', async ({ page }) => {
  const user = newUser();
  await signUp(page, user);
  await expect(page).toHaveURL(/\/home$/);
  const navigation = page.getByRole('navigation');
  await expect(navigation.getByRole('link', { name: 'Procesador FIE' })).toBeVisible();

  hideRoutesFor(user.email, ['/fie', '/payments']);
  await page.goto('/fie');
  await expect(page).toHaveURL(/\/home$/);
  await expect(navigation.getByRole('link', { name: 'Procesador FIE' })).toHaveCount(0);
  await page.getByRole('button', { name: 'Menú' }).click();
  await expect(page.getByRole('link', { name: 'Mi cuenta' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Pagos', exact: true })).toHaveCount(0);
});
