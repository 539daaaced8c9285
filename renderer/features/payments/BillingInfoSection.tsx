import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { billingInfoSchema } from '#shared/api/billing.ts';
import type { BillingInfo } from '#shared/api/billing.ts';
import { useBillingInfoQuery, useSaveBillingInfoMutation } from '../../api/billing.ts';
import { useToast } from '../../app/hooks.ts';
import { Button, ErrorBanner, Spinner, TextField } from '../../ui/index.ts';
import { asHttpError } from '../../ui/forms.ts';
import { billing } from '../../i18n/es-billing.ts';
import { billingErrorMessage } from './billingErrors.ts';
import { LoadError } from './LoadError.tsx';

const text = billing.billingInfo;

const FIELDS = ['name', 'taxId', 'email', 'addressLine1', 'addressLine2', 'postalCode', 'city', 'province'] as const;
type Field = (typeof FIELDS)[number];

const EMPTY: BillingInfo = { name: '', taxId: '', email: '', addressLine1: '', addressLine2: '', postalCode: '', city: '', province: '', country: 'ES' };

/** 'Datos de facturación': what Stripe prints on the invoices. Loads first, then the form starts from it. */
export function BillingInfoSection({ canAct }: { canAct: boolean }) {
  const info = useBillingInfoQuery();
  let body;
  if (info.isLoading) body = <div className="payments-placeholder payments-placeholder--tall"><Spinner /></div>;
  else if (info.isError) body = <LoadError error={info.error} fallback={text.loadFailed} onRetry={() => void info.refetch()} />;
  // Keyed by what was loaded: info saved elsewhere (the checkout's dialog) starts the form again from it.
  else body = <BillingInfoForm key={JSON.stringify(info.data ?? null)} initial={info.data ?? null} canAct={canAct} />;
  return (
    <section className="ui-card ui-section" aria-labelledby="payments-billing-title">
      <h2 id="payments-billing-title" className="ui-section__title">{text.heading}</h2>
      <p className="payments-note">{text.hint}</p>
      {body}
    </section>
  );
}

interface BillingInfoFormProps {
  initial: BillingInfo | null;
  canAct: boolean;
  /** After a save (the checkout's dialog goes on to Stripe); without it the form says 'guardados'. */
  onSaved?: (saved: BillingInfo) => void;
  submitLabel?: string;
}

/**
 * The form: billingInfoSchema checks it here as the server will (the NIF/CIF with the shared identifier
 * validators); the server's field issues land on their fields. Also the first step of a first checkout.
 */
export function BillingInfoForm({ initial: given, canAct, onSaved, submitLabel = text.save }: BillingInfoFormProps) {
  const initial = given ?? EMPTY;
  const toast = useToast();
  const [save, { isLoading: saving }] = useSaveBillingInfoMutation();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<BillingInfo>({
    defaultValues: { ...EMPTY, ...initial, addressLine2: initial.addressLine2 ?? '' },
    resolver: zodResolver(billingInfoSchema),
    mode: 'onBlur',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;

  const onValid = async (values: BillingInfo) => {
    setFormError(null);
    const line2 = values.addressLine2?.trim() ?? '';
    const body: BillingInfo = { ...values, country: 'ES', addressLine2: line2 === '' ? undefined : line2 };
    try {
      const saved = await save(body).unwrap();
      form.reset({ ...saved, addressLine2: saved.addressLine2 ?? '' });
      if (onSaved) onSaved(saved);
      else toast.success(text.saved);
    } catch (error) {
      const issues = asHttpError(error)?.data?.issues ?? [];
      const placed = issues.filter((issue) => (FIELDS as readonly string[]).includes(issue.path));
      for (const issue of placed) form.setError(issue.path as Field, { type: 'server', message: issue.message }, { shouldFocus: placed[0] === issue });
      setFormError(placed.length > 0 && placed.length === issues.length ? text.checkFields : billingErrorMessage(error));
    }
  };

  const field = (name: Field, label: string, extra: { type?: string; autoComplete?: string; inputMode?: 'numeric' } = {}) => (
    <TextField {...form.register(name)} {...extra} label={label} error={errors[name]?.message} readOnly={!canAct} />
  );

  return (
    <form className="payments-billing" noValidate onSubmit={(event) => void form.handleSubmit(onValid)(event)}>
      <ErrorBanner data={{ hasError: formError !== null, msg: formError ?? undefined }} onDismiss={() => setFormError(null)} />
      <div className="payments-billing__grid">
        {field('name', text.name, { autoComplete: 'organization' })}
        {field('taxId', text.taxId)}
        {field('email', text.email, { type: 'email', autoComplete: 'email' })}
        {field('addressLine1', text.addressLine1, { autoComplete: 'address-line1' })}
        {field('addressLine2', text.addressLine2, { autoComplete: 'address-line2' })}
        {field('postalCode', text.postalCode, { autoComplete: 'postal-code', inputMode: 'numeric' })}
        {field('city', text.city, { autoComplete: 'address-level2' })}
        {field('province', text.province, { autoComplete: 'address-level1' })}
        {/* Invoices carry Spanish VAT, so the country is fixed. */}
        <TextField label={text.country} value={text.spain} readOnly />
      </div>
      {canAct && (
        <div className="payments-billing__actions">
          <Button type="submit" loading={saving}>{submitLabel}</Button>
        </div>
      )}
    </form>
  );
}
