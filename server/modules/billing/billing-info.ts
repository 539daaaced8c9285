import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import Stripe from 'stripe';
import { BILLING_INFO_REQUIRED_MESSAGE, TAX_ID_INVALID_MESSAGE, type BillingInfo } from '#shared/api/billing.ts';
import { compactIdentifier } from '#shared/validation/identifiers.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError, validationError } from '../../http/errors.ts';
import { ensureCustomer } from './customer.ts';
import type { BillingCaller } from './owner.ts';
import { atStripe } from './stripe-errors.ts';
import type { StripeClient } from './stripe-client.ts';

/** Stripe's type for a Spanish NIF/CIF on invoices (it takes NIE and NIF of people too). */
const SPANISH_TAX_ID = 'es_cif';

/** The firm's billing info; null until the owner saves it (not an error: a page that asks logs nothing). */
export async function readBillingInfo(db: Kysely<Database>, groupId: string): Promise<BillingInfo | null> {
  const row = await db.selectFrom('billing_profiles').selectAll().where('group_id', '=', groupId).executeTakeFirst();
  if (!row) return null;
  return {
    name: row.name,
    taxId: row.tax_id,
    email: row.email,
    addressLine1: row.address_line1,
    ...(row.address_line2 !== null && { addressLine2: row.address_line2 }),
    postalCode: row.postal_code,
    city: row.city,
    province: row.province,
    country: 'ES',
  };
}

export interface BillingInfoDeps {
  db: Kysely<Database>;
  stripe: StripeClient;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * Stripe's customer first (name, email, address and the tax id its invoices print), then the table:
 * when Stripe cannot take it, nothing is written and the owner can try again.
 */
export async function saveBillingInfo({ db, stripe, now, log }: BillingInfoDeps, caller: BillingCaller, input: BillingInfo): Promise<BillingInfo> {
  const info: BillingInfo = { ...input, taxId: compactIdentifier(input.taxId), addressLine2: input.addressLine2?.trim() || undefined };
  const customerId = await ensureCustomer(db, stripe, log, caller);
  await atStripe(log, 'guardar los datos de facturación', async () => {
    // The tax id first: Stripe may refuse one our check let through, and then nothing else has changed.
    await replaceTaxId(stripe, customerId, info.taxId);
    await stripe.customers.update(customerId, {
      name: info.name,
      email: info.email,
      address: { line1: info.addressLine1, line2: info.addressLine2 ?? '', postal_code: info.postalCode, city: info.city, state: info.province, country: info.country },
    });
  });

  const row = {
    name: info.name,
    tax_id: info.taxId,
    email: info.email,
    address_line1: info.addressLine1,
    address_line2: info.addressLine2 ?? null,
    postal_code: info.postalCode,
    city: info.city,
    province: info.province,
    country: info.country,
    updated_by: caller.userId,
    updated_at: now().toISOString(),
  };
  await db
    .insertInto('billing_profiles')
    .values({ group_id: caller.groupId, ...row })
    .onConflict((conflict) => conflict.column('group_id').doUpdateSet(row))
    .execute();
  const saved = await readBillingInfo(db, caller.groupId);
  if (!saved) throw new Error('Los datos de facturación no se han guardado');
  return saved;
}

/**
 * A checkout needs the billing info first: Stripe prints the customer's name, address and tax id on
 * every invoice it makes, the first one included, so they must be on the customer before it pays.
 */
export async function requireBillingInfo(db: Kysely<Database>, groupId: string): Promise<void> {
  const row = await db.selectFrom('billing_profiles').select('group_id').where('group_id', '=', groupId).executeTakeFirst();
  if (!row) throw new HttpError(409, 'BILLING_INFO_REQUIRED', BILLING_INFO_REQUIRED_MESSAGE);
}

/**
 * One Spanish tax id on the customer: an unchanged one stays, a different one is replaced (the new one
 * added before the old goes, so a refusal leaves the customer as it was). A value Stripe refuses is the
 * user's input, not an outage: 400 on taxId.
 */
async function replaceTaxId(stripe: StripeClient, customerId: string, taxId: string): Promise<void> {
  const existing = (await stripe.customers.listTaxIds(customerId, { limit: 100 })).data.filter((tax) => tax.type === SPANISH_TAX_ID);
  if (!existing.some((tax) => tax.value === taxId)) {
    await stripe.customers.createTaxId(customerId, { type: SPANISH_TAX_ID, value: taxId }).catch((error: unknown) => {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'tax_id_invalid') throw validationError([{ path: 'taxId', message: TAX_ID_INVALID_MESSAGE }]);
      throw error;
    });
  }
  for (const tax of existing) if (tax.value !== taxId) await stripe.customers.deleteTaxId(customerId, tax.id);
}
