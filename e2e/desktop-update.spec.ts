import { expect, signIn, test } from './fixtures.ts';
import type { Page } from '@playwright/test';

/**
 * The update prompt against the built renderer, with a stand-in for the Electron preload
 * (window.desktop) answering CheckAppUpdate: the headless agent has no update feed to offer.
 */
test.use({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36 AutoAsesorDesktop/1.4.0' });

type Update = 'none' | 'optionalUpdate' | 'forceUpdate';

async function desktopOffering(page: Page, update: Update, latestVersion: string): Promise<void> {
  await page.addInitScript(
    ({ update, latestVersion }) => {
      const checkedAt = new Date().toISOString();
      Object.defineProperty(window, 'desktop', {
        value: {
          invoke: async (command: string) =>
            command === 'CheckAppUpdate'
              ? { ok: true, data: { currentVersion: '1.4.0', latestVersion, update, checkedAt } }
              : { ok: false, error: { code: 'UNAVAILABLE', message: 'No disponible en esta prueba' } },
          on: () => () => undefined,
        },
      });
    },
    { update, latestVersion },
  );
}

async function signInAsDemo(page: Page): Promise<void> {
  await page.goto('/auth');
  await signIn(page, { email: 'demo@autoasesor.es', password: 'Demo1234!' });
  await expect(page).toHaveURL(/\/home$/);
}

test('a forced update blocks the app behind a dialog that Escape and clicks outside cannot close', async ({ page }) => {
  await desktopOffering(page, 'forceUpdate', '2.0.0');
  await signInAsDemo(page);

  const dialog = page.getByRole('dialog', { name: 'Actualización obligatoria' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Tienes la versión 1.4.0 y es necesario actualizar a la 2.0.0 para seguir usando AutoAsesor.');
  await expect(dialog).toContainText('Cierra la aplicación y descarga la nueva versión desde la web de AutoAsesor');
  await expect(dialog.getByRole('button', { name: 'Cerrar', exact: true })).toHaveCount(0);

  await page.keyboard.press('Escape');
  await page.mouse.click(5, 5);
  await expect(dialog).toBeVisible();
  // The page behind stays out of reach: a click where the menu button is opens no menu, and Tab
  // never takes the focus out of the dialog.
  const box = await page.getByRole('button', { name: 'Menú', includeHidden: true }).boundingBox();
  expect(box).not.toBeNull();
  await page.mouse.click(box!.x + box!.width / 2, box!.y + box!.height / 2);
  await expect(dialog).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(1);
  for (let press = 0; press < 4; press++) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
  }
});

test('an optional update shows a banner that "Más tarde" puts off, also after a reload', async ({ page }) => {
  await desktopOffering(page, 'optionalUpdate', '2.0.0');
  await signInAsDemo(page);

  const banner = page.getByRole('status').filter({ hasText: 'Hay una nueva versión de AutoAsesor (2.0.0).' });
  await expect(banner).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await banner.getByRole('button', { name: 'Más tarde' }).click();
  await expect(banner).toHaveCount(0);

  await page.reload();
  await expect(page.getByRole('navigation').first()).toBeVisible();
  await expect(page.getByText('Hay una nueva versión de AutoAsesor')).toHaveCount(0);
});
