import { useEffect, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import type { PublicOnlineForm } from '#shared/api/onlineforms.ts';
import type { OnlineFormValues } from '#shared/documents/form-fields.ts';
import { onlineForm as text } from '../../i18n/es-onlineforms.ts';
import { Button, ErrorBanner } from '../../ui/index.ts';
import { OnlineFieldInput } from './OnlineFieldInput.tsx';
import { SignatureField } from './SignatureField.tsx';
import {
  SIGNATURE_KEY, SIGNER_KEY, blurError, fieldError, formErrorsOf, initialOnlineValues, placeServerIssues, submissionBody,
} from './onlineFormModel.ts';
import type { OnlineFormErrors } from './onlineFormModel.ts';
import { sendOnlineFormSubmission } from './publicOnlineFormApi.ts';

export interface OnlineFormFillProps {
  publicId: string;
  form: PublicOnlineForm;
  /** The form was received: the page shows its confirmation with the server's time. */
  onSent: (receivedAt: string) => void;
  /** The form closed or went away while the client was filling it. */
  onGone: (status: 404 | 410) => void;
}

/** The first invalid control in the form, in page order, scrolled to the middle and focused. */
function focusFirstInvalid(form: HTMLFormElement | null) {
  const invalid = form?.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (!invalid) return;
  invalid.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  invalid.focus({ preventScroll: true });
}

/** The client fills the fields, signs when asked and sends; every field is checked as they leave it and again on send. */
export function OnlineFormFill({ publicId, form, onSent, onGone }: OnlineFormFillProps) {
  const { fields, requireSignature } = form;
  const [values, setValues] = useState<OnlineFormValues>(() => initialOnlineValues(fields));
  const [signerName, setSignerName] = useState('');
  const [signature, setSignature] = useState<string | null>(null);
  const [errors, setErrors] = useState<OnlineFormErrors>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [focusRequest, setFocusRequest] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (focusRequest > 0) focusFirstInvalid(formRef.current);
  }, [focusRequest]);

  const setError = (key: string, message: string | null) =>
    setErrors((current) => {
      if ((current[key] ?? null) === message) return current;
      const next = { ...current };
      if (message === null) delete next[key];
      else next[key] = message;
      return next;
    });

  const change = (key: string, value: string | boolean) => {
    setValues((current) => ({ ...current, [key]: value }));
    const field = fields.find((candidate) => candidate.key === key);
    // A shown error follows the typing, so it goes as soon as the value is right; a checkbox is checked at once.
    if (field && (errors[key] !== undefined || field.type === 'checkbox' || field.type === 'select')) setError(key, fieldError(field, value));
  };

  // 'Revisa los campos marcados' goes once every marked field is right.
  const shownBanner = banner === text.checkFields && Object.keys(errors).length === 0 ? null : banner;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (sending) return;
    setBanner(null);
    const signing = { requireSignature, signerName, signature };
    const found = formErrorsOf(fields, values, signing);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setBanner(text.checkFields);
      setFocusRequest((count) => count + 1);
      return;
    }
    setSending(true);
    const result = await sendOnlineFormSubmission(publicId, submissionBody(fields, values, signing));
    setSending(false);
    if (result.ok) {
      onSent(result.data.receivedAt);
      return;
    }
    const { status } = result.error;
    if (status === 404 || status === 410) {
      onGone(status);
      return;
    }
    const placed = placeServerIssues(result.error.issues, fields);
    setErrors(placed.errors);
    const placedAny = Object.keys(placed.errors).length > 0;
    const fallback = status === 429 ? text.tooMany : status === 0 ? text.sendFailed : (result.error.message ?? text.sendFailed);
    setBanner(placed.unplaced[0] ?? (placedAny ? text.checkFields : fallback));
    if (placedAny) setFocusRequest((count) => count + 1);
  };

  return (
    <form ref={formRef} className="onlineform-form" noValidate onSubmit={(event) => void submit(event)} aria-label={form.title}>
      <section className="ui-card ui-section onlineform-card">
        <p className="ui-muted">{text.requiredHint}</p>
        {fields.map((field) => (
          <OnlineFieldInput
            key={field.key}
            field={field}
            value={values[field.key] ?? ''}
            onChange={(value) => change(field.key, value)}
            onBlur={() => {
              if (field.type !== 'checkbox') setError(field.key, blurError(field, values[field.key]) ?? (errors[field.key] === undefined ? null : fieldError(field, values[field.key])));
            }}
            error={errors[field.key]}
          />
        ))}
      </section>
      {requireSignature && (
        <section className="ui-card ui-section onlineform-card">
          <SignerNameField
            value={signerName}
            error={errors[SIGNER_KEY]}
            onChange={(next) => {
              setSignerName(next);
              if (errors[SIGNER_KEY] !== undefined && next.trim() !== '') setError(SIGNER_KEY, null);
            }}
          />
          <SignatureField
            signerName={signerName}
            value={signature}
            error={errors[SIGNATURE_KEY]}
            onChange={(next) => {
              setSignature(next);
              if (next !== null) setError(SIGNATURE_KEY, null);
            }}
          />
        </section>
      )}
      <div className="onlineform-actions">
        <ErrorBanner data={{ hasError: shownBanner !== null, msg: shownBanner ?? undefined }} />
        <Button type="submit" loading={sending} disabled={sending}>{sending ? text.sending : text.submit}</Button>
      </div>
    </form>
  );
}

function SignerNameField({ value, error, onChange }: { value: string; error?: string; onChange: (value: string) => void }) {
  const id = `onlineform-signer`;
  return (
    <div className={`app-field onlineform-field${error ? ' app-field--invalid' : ''}`}>
      <label htmlFor={id}>{text.signerName} *</label>
      <p id={`${id}-help`} className="onlineform-field__help">{text.signerHint}</p>
      <input
        id={id}
        className="ui-input"
        autoComplete="name"
        maxLength={200}
        value={value}
        aria-required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-help ${id}-error` : `${id}-help`}
        onChange={(event) => onChange(event.target.value)}
      />
      <p className="app-field__error"><span id={`${id}-error`}>{error}</span></p>
    </div>
  );
}
