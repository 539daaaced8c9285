import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { useResetPasswordCheckMutation, useResetPasswordMutation } from '../../api/session.ts';
import { useForm } from '../../ui/forms.ts';
import type { FormRules } from '../../ui/forms.ts';
import { TextField } from '../../ui/TextField.tsx';
import { Button } from '../../ui/Button.tsx';
import { es } from '../../i18n/es.ts';

const emailRules: FormRules<'email'> = { email: { required: true, rule: 'email' } };
const emailInitial = { email: '' };

/** Asks for the reset link. The answer never says whether the account exists. */
export function ResetRequestForm() {
  const form = useForm(emailInitial, emailRules);
  const [requestReset, { isLoading }] = useResetPasswordMutation();
  const [alert, setAlert] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (!form.validateAll()) return;
    const result = await requestReset({ email: form.values.email });
    if (result.error) setAlert(form.applyServerError(result.error) ?? null);
    else setSentTo(form.values.email.trim());
  };

  if (sentTo) return <p className="app-form__notice" role="status">{es.auth.resetSent(sentTo)}</p>;
  return (
    <form className="app-form" onSubmit={(event) => void submit(event)} noValidate>
      {alert && <p className="app-form__alert" role="alert">{alert}</p>}
      <TextField label={es.auth.email} type="email" autoComplete="email" value={form.values.email} error={form.errors.email}
        onValueChange={(value) => form.setValue('email', value)} onBlur={() => form.validateField('email')} />
      <Button type="submit" loading={isLoading}>{es.auth.sendLink}</Button>
    </form>
  );
}

const passwordRules: FormRules<'password'> = { password: { required: true, rule: 'password' } };
const passwordInitial = { password: '' };

/** /auth/reset?token=…: checks the link first, then sets the new password (resetpasscheck). */
export function NewPasswordForm({ token }: { token: string }) {
  const form = useForm(passwordInitial, passwordRules);
  const [check, { isLoading }] = useResetPasswordCheckMutation();
  const [linkValid, setLinkValid] = useState<boolean | null>(null);
  const [alert, setAlert] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  useEffect(() => {
    let live = true;
    void check({ token }).then((result) => {
      if (live) setLinkValid(!result.error);
    });
    return () => {
      live = false;
    };
  }, [check, token]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (!form.validateAll()) return;
    const result = await check({ token, password: form.values.password });
    if (result.error) setAlert(form.applyServerError(result.error) ?? null);
    else setDone(true);
  };

  if (linkValid === false) return <p className="app-form__alert" role="alert">{es.auth.invalidLink}</p>;
  if (done) {
    return (
      <p className="app-form__notice" role="status">
        {es.auth.passwordChanged} <Link to="/auth/signin">{es.auth.signin}</Link>
      </p>
    );
  }
  return (
    <form className="app-form" onSubmit={(event) => void submit(event)} noValidate>
      {alert && <p className="app-form__alert" role="alert">{alert}</p>}
      <TextField label={es.auth.newPassword} type="password" autoComplete="new-password" value={form.values.password} error={form.errors.password}
        onValueChange={(value) => form.setValue('password', value)} onBlur={() => form.validateField('password')} />
      <Button type="submit" loading={isLoading || linkValid === null}>{es.auth.savePassword}</Button>
    </form>
  );
}
