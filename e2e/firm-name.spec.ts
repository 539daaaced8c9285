import { randomUUID } from 'node:crypto';
import type { Locator } from '@playwright/test';
import { expect, newUser, signUp, test } from './fixtures.ts';

/**
 * Issue 44: the firm's own name in Mi cuenta (§6), and a toast shown while a dialog stays open never
 * covers the dialog's buttons ('Guardar', §9, at 1366 px).
 */

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  if (!found) throw new Error('not laid out');
  return found;
}

test("the owner names the firm in Mi cuenta; the notice that it still carries the owner's name goes", async ({ page }) => {
  const owner = newUser();
  await signUp(page, owner);
  await page.goto('/userprofile');
  const section = page.getByRole('form', { name: 'Tu asesoría' });
  await expect(section.getByText('Ahora la asesoría lleva tu nombre.', { exact: false })).toBeVisible();
  await expect(section.getByLabel('Nombre de la asesoría')).toHaveValue(owner.name);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: width > 1000 ? 900 : 844 });
    await section.scrollIntoViewIfNeeded();
    await page.screenshot({ path: test.info().outputPath(`mi-cuenta-asesoria-${width}.png`) });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  }
  await section.getByLabel('Nombre de la asesoría').fill('Asesoría Ruiz y Asociados');
  await section.getByRole('button', { name: 'Guardar nombre' }).click();
  await expect(page.getByText('Nombre de la asesoría guardado')).toBeVisible();
  await expect(section.getByText('Ahora la asesoría lleva tu nombre.', { exact: false })).toHaveCount(0);
  // Kept: a reload reads it from the server.
  await page.reload();
  await expect(page.getByRole('form', { name: 'Tu asesoría' }).getByLabel('Nombre de la asesoría')).toHaveValue('Asesoría Ruiz y Asociados');
});

test("a toast shown while a dialog stays open is clear of the dialog's buttons (1366×768)", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await signUp(page, newUser());
  await page.goto('/altasybajas');
  await page.getByRole('button', { name: 'Configuración del formulario' }).click();
  const dialog = page.getByRole('dialog', { name: 'Configuración del formulario' });
  await dialog.getByLabel(/^Título del formulario/).fill('Altas de la Asesoría Prueba');
  await dialog.getByLabel(/^URL del formulario/).fill(`altas-${randomUUID().slice(0, 8)}`);
  const save = dialog.getByRole('button', { name: 'Guardar' });
  await save.click();
  const toast = page.locator('.app-toast', { hasText: 'Configuración del formulario guardada correctamente.' });
  await expect(toast).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('toast-sobre-dialogo-1366.png') });
  // Clear of every button of the dialog: 'Guardar' and 'Cancelar' at the bottom right, the close at the top right.
  const toastBox = await box(toast);
  // The head's and the footer's (the body's own scroll under them, clipped).
  const buttons = await dialog.locator('.ui-modal__head, .ui-modal__footer').getByRole('button').all();
  expect(buttons.length).toBeGreaterThanOrEqual(3);
  for (const button of buttons) {
    const other = await box(button);
    const overlaps = toastBox.x < other.x + other.width && other.x < toastBox.x + toastBox.width && toastBox.y < other.y + other.height && other.y < toastBox.y + toastBox.height;
    expect(overlaps, await button.textContent() ?? '').toBe(false);
  }
  const saveBox = await box(save);
  // Guardar is still where a click lands.
  const { x, y, width, height } = saveBox;
  expect(await page.evaluate(([px, py]) => document.elementFromPoint(px!, py!)?.closest('button')?.textContent ?? '', [x + width / 2, y + height / 2])).toBe('Guardar');
});
