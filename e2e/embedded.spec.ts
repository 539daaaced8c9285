import { machineIdentityReader } from '../main/machine/machine-id.ts';
import { expect, signIn, test } from './fixtures.ts';

/** The renderer inside the desktop window: the user-agent marker, and the bridge served by the headless agent. */
test.use({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36 AutoAsesorDesktop/0.1.0' });

test.beforeEach(async ({ page }) => {
  const bridge = { url: process.env.E2E_AGENT_URL, token: process.env.E2E_AGENT_TOKEN };
  await page.addInitScript((value) => localStorage.setItem('autoasesor.agentBridge', value), JSON.stringify(bridge));
});

/** This machine's code as the agent computes it (unit-tested in main/machine/). */
async function thisMachineHash(): Promise<string> {
  return (await machineIdentityReader()()).machineHashCode;
}

test('embedded mode shows the window buttons and this machine’s code from the desktop bridge', async ({ page }) => {
  await page.goto('/auth');
  await signIn(page, { email: 'demo@autoasesor.es', password: 'Demo1234!' });
  await expect(page).toHaveURL(/\/home$/);

  const topBar = page.getByRole('banner');
  for (const name of ['Minimizar', 'Maximizar', 'Cerrar']) {
    await expect(topBar.getByRole('button', { name, exact: true })).toBeVisible();
  }

  await page.getByRole('button', { name: 'Menú' }).click();
  await expect(page.getByTestId('machine-hash')).toHaveText(`Equipo: ${(await thisMachineHash()).slice(0, 12)}`);
  await expect(page.getByText('Versión 0.1.0')).toBeVisible();

  // The headless agent has no window to minimize: the user is told so instead of nothing happening.
  await page.keyboard.press('Escape');
  await topBar.getByRole('button', { name: 'Minimizar' }).click();
  await expect(page.getByText('Esta acción solo está disponible en la ventana de la aplicación de escritorio.')).toBeVisible();
});

test('the web app (no marker) shows no window buttons', async ({ browser }) => {
  const context = await browser.newContext({ userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0 Safari/537.36' });
  const page = await context.newPage();
  await page.goto('/auth');
  await signIn(page, { email: 'demo@autoasesor.es', password: 'Demo1234!' });
  await expect(page).toHaveURL(/\/home$/);
  await expect(page.getByRole('banner').getByRole('button', { name: 'Minimizar' })).toHaveCount(0);
  await context.close();
});
