import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FormEvent } from 'react';
import { SCROLL_THROTTLE_MS } from '../../ui/forms.ts';
import { Button, ErrorBanner } from '../../ui/index.ts';
import { form as text } from '../../i18n/es-form.ts';
import { ChoiceField } from './ChoiceField.tsx';
import { FieldInput, labelOf } from './FieldInput.tsx';
import {
  COMPANY_KEY, PROFILE_KEY, effectiveField, fieldErrorFor, formErrors, initialValues, optionsFor, pageKeys, placeIssues,
  ruleErrorKeys, submissionValues, visiblePages, withChange, workerName,
} from './formModel.ts';
import type { FieldValue, FormErrors, FormSession, FormValues } from './formModel.ts';
import { sendSubmission } from './publicFormApi.ts';

export interface AltaFormProps {
  slug: string;
  session: FormSession;
  /** After an alta is received: the page reloads the company's list. */
  onSent: () => void;
  /** The company's session ended (401): the page asks it to sign in again. */
  onSessionLost: () => void;
}

/** The first invalid input in the form, in document order, scrolled to and focused (spec §5: at most once a second). */
function focusFirstInvalid(form: HTMLFormElement | null, lastScroll: { current: number }) {
  const now = Date.now();
  if (form === null || now - lastScroll.current < SCROLL_THROTTLE_MS) return;
  const invalid = form.querySelector<HTMLElement>('[aria-invalid="true"]');
  if (invalid === null) return;
  const target = invalid.matches('input, select, textarea, button') ? invalid : invalid.querySelector<HTMLElement>('input:not([hidden]), select, button');
  lastScroll.current = now;
  invalid.scrollIntoView?.({ block: 'center', behavior: 'smooth' });
  (target ?? invalid).focus({ preventScroll: true });
}

/** The alta itself: company, 'Perfil del puesto', the definition's pages, then the confirmation. */
export function AltaForm({ slug, session, onSent, onSessionLost }: AltaFormProps) {
  const { companies, fields } = session;
  const pages = useMemo(() => visiblePages(session.formPages, fields), [session.formPages, fields]);
  const [companyId, setCompanyId] = useState<string | null>(companies.length === 1 ? (companies[0]?._id ?? null) : null);
  const company = companies.find((candidate) => candidate._id === companyId);
  const groups = company?.groups ?? [];
  const [groupKey, setGroupKey] = useState<string | null>(null);
  const [values, setValues] = useState<FormValues>(() => initialValues(pages, fields));
  const [errors, setErrors] = useState<FormErrors>({});
  const [banner, setBanner] = useState<string | null>(null);
  const [sending, setSending] = useState(false);
  const [uploads, setUploads] = useState(0);
  const [sentFor, setSentFor] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  const lastScroll = useRef(Number.NEGATIVE_INFINITY);
  const [focusRequest, setFocusRequest] = useState(0);
  const doneRef = useRef<HTMLHeadingElement>(null);

  // A company with one profile needs no choice.
  useEffect(() => {
    setGroupKey(groups.length === 1 ? (groups[0]?.key ?? null) : null);
  }, [companyId]); // eslint-disable-line react-hooks/exhaustive-deps -- only a new company resets the profile

  useEffect(() => {
    if (focusRequest > 0) focusFirstInvalid(formRef.current, lastScroll);
  }, [focusRequest]);

  useEffect(() => {
    if (sentFor !== null) doneRef.current?.focus();
  }, [sentFor]);

  const setError = (key: string, message: string | null) =>
    setErrors((current) => {
      if ((current[key] ?? null) === message) return current;
      const next = { ...current };
      if (message === null) delete next[key];
      else next[key] = message;
      return next;
    });

  const change = (key: string, value: FieldValue) => {
    const next = withChange(fields, values, key, value);
    setValues(next);
    // Shown errors follow the typing (the document number follows its type too), so each is gone as soon as its value is right.
    for (const shownKey of Object.keys(errors)) {
      const field = fields[shownKey];
      if (field) setError(shownKey, fieldErrorFor(shownKey, field, next, fields));
    }
  };

  const blur = (key: string) => {
    const field = fields[key];
    const value = values[key];
    // An untouched empty field says nothing on blur: 'obligatorio' waits for the send.
    if (field && typeof value === 'string' && value.trim() !== '') setError(key, fieldErrorFor(key, field, values, fields));
    // A date that breaks a rule with another filled one (age on the fecha de alta, contract start) shows it on that one now.
    for (const other of ruleErrorKeys(values, fields)) {
      const otherField = fields[other];
      if (other !== key && otherField) setError(other, fieldErrorFor(other, otherField, values, fields));
    }
  };

  const onBusyChange = useCallback((busy: boolean) => setUploads((count) => Math.max(0, count + (busy ? 1 : -1))), []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBanner(null);
    const found = formErrors(pages, fields, values, { companyId, groupKey });
    setErrors(found);
    if (Object.keys(found).length > 0 || companyId === null || groupKey === null) {
      setBanner(text.fill.checkFields);
      setFocusRequest((count) => count + 1);
      return;
    }
    setSending(true);
    const result = await sendSubmission(slug, { companyId, groupKey, fieldsValues: submissionValues(pages, fields, values) });
    setSending(false);
    if (result.ok) {
      setSentFor(workerName(values));
      onSent();
      return;
    }
    if (result.error.status === 401) {
      onSessionLost();
      return;
    }
    const placed = placeIssues(result.error.issues, pageKeys(pages));
    setErrors(placed.errors);
    const placedAny = Object.keys(placed.errors).length > 0;
    setBanner(placed.unplaced[0] ?? (placedAny ? text.fill.checkFields : (result.error.message ?? text.fill.sendFailed)));
    if (placedAny) setFocusRequest((count) => count + 1);
  };

  const another = () => {
    setValues(initialValues(pages, fields));
    setErrors({});
    setBanner(null);
    setSentFor(null);
  };

  if (companies.length === 0) return <p className="form-notice" role="status">{text.fill.noCompanies}</p>;

  if (sentFor !== null) {
    return (
      <section className="ui-card ui-section form-done" aria-labelledby="form-done-title">
        <h2 id="form-done-title" className="ui-section__title" ref={doneRef} tabIndex={-1}>{text.done.title}</h2>
        <p role="status">{text.done.message(sentFor)}</p>
        <div>
          <Button onClick={another}>{text.done.another}</Button>
        </div>
      </section>
    );
  }

  return (
    <form ref={formRef} className="form-alta" noValidate onSubmit={(event) => void submit(event)} aria-labelledby="form-alta-title">
      <section className="ui-card ui-section">
        <h2 id="form-alta-title" className="ui-section__title">{text.fill.title}</h2>
        <p className="ui-muted">{text.fill.requiredHint}</p>
        <div className="form-grid">
          {companies.length > 1 && (
            <ChoiceField
              label={`${text.fill.company} *`}
              options={companies.map((candidate) => ({ key: candidate._id, text: candidate.name }))}
              value={companyId}
              onChange={(next) => {
                setCompanyId(next);
                setError(COMPANY_KEY, null);
                // CCC options belong to the company: a new company empties the chosen CCC.
                setValues((current) => Object.fromEntries(Object.entries(current).map(([key, value]) => [key, fields[key]?.validValuesFromExtraFields ? null : value])));
              }}
              error={errors[COMPANY_KEY]}
              required
            />
          )}
          <ChoiceField
            label={`${text.fill.profile} *`}
            options={company === undefined ? null : groups.map((group) => ({ key: group.key, text: group.text }))}
            value={groupKey}
            onChange={(next) => {
              setGroupKey(next);
              setError(PROFILE_KEY, null);
            }}
            error={errors[PROFILE_KEY]}
            required
            waitingHint={text.fill.dependsOn(text.fill.company)}
            emptyHint={text.fill.noProfiles}
          />
        </div>
      </section>
      {pages.map((page, index) => (
        <section key={`${index}-${page.title}`} className="ui-card ui-section" aria-labelledby={`form-page-${index}`}>
          <h2 id={`form-page-${index}`} className="ui-section__title">{page.title}</h2>
          <div className="form-grid">
            {page.keys.map((key) => {
              const field = fields[key];
              if (field === undefined) return null;
              const parentKey = field.dependentKey;
              return (
                <FieldInput
                  key={key}
                  fieldKey={key}
                  field={effectiveField(key, field, values, fields)}
                  value={values[key] ?? null}
                  onChange={(value) => change(key, value)}
                  onBlur={() => blur(key)}
                  error={errors[key]}
                  options={optionsFor(field, values, company)}
                  parentTitle={parentKey === undefined ? undefined : labelOf({ title: fields[parentKey]?.title ?? parentKey })}
                  slug={slug}
                  onBusyChange={onBusyChange}
                />
              );
            })}
          </div>
        </section>
      ))}
      <div className="form-actions">
        <ErrorBanner data={{ hasError: banner !== null, msg: banner ?? undefined }} />
        <Button type="submit" loading={sending} disabled={uploads > 0}>{text.fill.submit}</Button>
      </div>
    </form>
  );
}
