import { useState } from 'react';
import { BAD_CREDENTIALS_MESSAGE } from '#shared/api/altas.ts';
import { useAppForm } from '../../ui/forms.ts';
import type { FormRules } from '../../ui/forms.ts';
import { Button, ErrorBanner, TextField } from '../../ui/index.ts';
import { form as text } from '../../i18n/es-form.ts';
import { signInToForm } from './publicFormApi.ts';

type Field = 'email' | 'password';
const rules: FormRules<Field> = {
  email: { required: true, rule: 'email' },
  password: { required: true, formatRequired: false },
};

export interface SignInPanelProps {
  /** The form's address as the company opened it: the server finds the form by it. */
  formUrl: string;
  onSignedIn: () => void;
  /** Why the company is asked to sign in again (its session ended while it filled the form). */
  notice?: string;
}

/** The company signs in with the credentials its asesoría emailed it. */
export function SignInPanel({ formUrl, onSignedIn, notice }: SignInPanelProps) {
  const form = useAppForm<Field>({ defaultValues: { email: '', password: '' }, rules });
  const [failure, setFailure] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  const signIn = form.submit(async ({ email, password }) => {
    setFailure(null);
    setSending(true);
    const result = await signInToForm(formUrl, email.trim(), password);
    setSending(false);
    if (result.ok) {
      onSignedIn();
      return;
    }
    const { status, message } = result.error;
    if (status === 429) setFailure(text.signIn.tooManyAttempts);
    else if (status === 401) setFailure(message ?? BAD_CREDENTIALS_MESSAGE);
    else setFailure(message ?? text.signIn.failed);
  });

  return (
    <section className="ui-card ui-section form-sign-in" aria-labelledby="form-sign-in-title">
      <h2 id="form-sign-in-title" className="ui-section__title">{text.signIn.title}</h2>
      <p>{text.signIn.explanation}</p>
      {notice && <p className="form-notice" role="status">{notice}</p>}
      <form noValidate onSubmit={(event) => void signIn(event)} className="form-sign-in__form">
        <TextField label={text.signIn.email} type="email" autoComplete="username" {...form.field('email')} />
        <TextField label={text.signIn.password} type="password" autoComplete="current-password" {...form.field('password')} />
        <ErrorBanner data={{ hasError: failure !== null, msg: failure ?? undefined }} />
        <div>
          <Button type="submit" loading={sending}>{text.signIn.submit}</Button>
        </div>
      </form>
    </section>
  );
}
