import { setUsedCredits, withDatabase } from './database.ts';
import { screenshotsInto } from './embedded-context.ts';
import { expect, newUser, signUp, test } from './fixtures.ts';
import { giveBillingInfo, launchOnExtraUsage, payOnHostedPage } from './hosted-checkout.ts';
import { mailsTo } from './mailbox.ts';
import { advancePeriod, failNextPayment, meterEvents, payInvoice, subscriptionsOf } from './stripe-standin.ts';

const shots = process.env.BILLING_SHOTS;

/** The firm's Stripe customer, as the server stored it when the checkout began. */
function customerOf(email: string): string {
  return withDatabase((db) => {
    const row = db.prepare('select s.stripe_customer_id as id from subscriptions s join users u on u.group_id = s.group_id where u.email = ?').get(email) as { id: string | null };
    if (!row.id) throw new Error(`${email} has no Stripe customer yet`);
    return row.id;
  });
}

test('subscribe on the hosted checkout, reach 90 %, go past the limit with Continuar, add a card and cancel', async ({ page }) => {
  test.setTimeout(120_000);
  const user = newUser();
  await signUp(page, user);

  // The trial: the plans on offer come from Stripe's prices.
  await page.goto('/payments');
  const plans = page.getByRole('list', { name: 'Planes disponibles' });
  const basic = plans.getByRole('listitem').filter({ hasText: 'Básico' });
  await expect(basic).toContainText('49,00 € al mes');
  await expect(basic).toContainText('2.000 slans incluidos');
  await screenshotsInto(shots, page, 'payments-trial');
  await basic.getByRole('button', { name: 'Contratar' }).click();
  await giveBillingInfo(page);

  // Stripe's hosted page (the stand-in's), then back to Pagos once the webhooks have made the plan active.
  await expect(page.getByRole('heading', { name: 'Suscribirse' })).toBeVisible();
  await payOnHostedPage(page, '4242 4242 4242 4242', 'Suscribirse');
  await expect(page).toHaveURL(/\/payments/);
  await expect(page.getByText('Tu plan Básico está activo')).toBeVisible({ timeout: 30_000 });
  const invoice = page.getByRole('region', { name: 'Lista de facturas' }).getByRole('row').filter({ hasText: '49,00 €' });
  await expect(invoice).toContainText('Pagada');
  // The invoice's PDF is a real PDF, served where Stripe would serve it.
  const pdf = await page.request.get((await invoice.getByRole('link', { name: /Descargar la factura .* en PDF/ }).getAttribute('href')) ?? '');
  expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');
  await screenshotsInto(shots, page, 'payments-active');

  // The banner at 90 % of the paid plan.
  setUsedCredits(user.email, 1_800);
  await page.goto('/home');
  await expect(page.getByRole('status').filter({ hasText: 'Has consumido el 90 % de tus créditos de este periodo.' })).toBeVisible();

  // Past the limit: the 402 prompt, priced, offers Continuar on a paid plan, and the run goes on extra usage.
  const run = await launchOnExtraUsage(page, user.email);
  // Reported to Stripe's meter once, named by the run (the reporter passes every 10 s).
  await expect.poll(async () => (await meterEvents()).filter((event) => event.identifier === `run-${run?.id}`).length, { timeout: 30_000 }).toBe(1);

  // The ledger shows the charge beside the period's credit, and the extra usage.
  await page.goto('/payments/consumo');
  const movements = page.getByRole('table', { name: 'Movimientos del periodo' });
  await expect(movements.getByRole('row').filter({ hasText: 'Validar identificadores' })).toContainText('−1');
  await expect(movements.getByRole('row').filter({ hasText: 'Plan Básico: periodo del' })).toContainText('+2.000');
  await screenshotsInto(shots, page, 'ledger');

  // A second card through the hosted setup page, made the default.
  await page.goto('/payments');
  await page.getByRole('button', { name: 'Añadir tarjeta' }).click();
  await expect(page.getByRole('heading', { name: 'Añadir una tarjeta' })).toBeVisible();
  await payOnHostedPage(page, '5555 5555 5555 4444', 'Guardar tarjeta');
  await expect(page.getByText('Tarjeta añadida')).toBeVisible({ timeout: 30_000 });
  const cards = page.getByRole('list', { name: 'Tarjetas guardadas' });
  await expect(cards.getByRole('listitem')).toHaveCount(2);
  await cards.getByRole('button', { name: /•••• 4444 como predeterminada/ }).click();
  await expect(cards.getByRole('listitem').filter({ hasText: '4444' })).toContainText('Predeterminada');

  // Cancel at the period's end; once the period ends at Stripe, the plan is over and paid routes ask to pay.
  await page.getByRole('button', { name: 'Cancelar el plan' }).click();
  await page.getByRole('dialog', { name: 'Cancelar el plan' }).getByRole('button', { name: 'Cancelar el plan' }).click();
  await expect(page.getByText(/Tu plan se cancelará el \d{2}\/\d{2}\/\d{4}/).first()).toBeVisible();
  await screenshotsInto(shots, page, 'payments-cancelling');
  const [subscription] = await subscriptionsOf(customerOf(user.email));
  await advancePeriod(subscription?.id ?? '');
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('region', { name: 'Estado del plan' }).getByRole('definition').filter({ hasText: /^Cancelado$/ })).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await page.goto('/smartbuilder');
  await expect(page.getByRole('dialog', { name: 'Necesitas una suscripción activa' })).toBeVisible();
});

test('a renewal Stripe cannot charge: the banner and one email to the owner; once paid, the banner goes', async ({ page }) => {
  test.setTimeout(90_000);
  const user = newUser();
  await signUp(page, user);
  await page.goto('/payments');
  await page.getByRole('list', { name: 'Planes disponibles' }).getByRole('listitem').filter({ hasText: 'Profesional' }).getByRole('button', { name: 'Contratar' }).click();
  await giveBillingInfo(page);
  await payOnHostedPage(page, '4242 4242 4242 4242', 'Suscribirse');
  await expect(page.getByText('Tu plan Profesional está activo')).toBeVisible({ timeout: 30_000 });

  // The next period's charge fails at Stripe: invoice.payment_failed, the subscription past_due.
  const customer = customerOf(user.email);
  await failNextPayment(customer);
  const [subscription] = await subscriptionsOf(customer);
  const { invoiceId } = await advancePeriod(subscription?.id ?? '');
  const banner = page.getByRole('alert').filter({ hasText: 'No se ha podido cobrar la última factura.' });
  await expect(async () => {
    await page.goto('/home');
    await expect(banner).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await screenshotsInto(shots, page, 'payment-failed-banner');
  await expect.poll(async () => (await mailsTo(user.email)).filter((mail) => mail.subject === 'No hemos podido cobrar tu plan de AutoAsesor').length, { timeout: 15_000 }).toBe(1);
  await banner.getByRole('button', { name: 'Revisar el pago' }).click();
  await expect(page).toHaveURL(/\/payments$/);
  await expect(page.getByRole('region', { name: 'Estado del plan' })).toContainText('Pago pendiente');

  // Paid on Stripe's retry: active again, no banner.
  await payInvoice(invoiceId ?? '');
  await expect(async () => {
    await page.goto('/home');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(banner).toHaveCount(0, { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
});
