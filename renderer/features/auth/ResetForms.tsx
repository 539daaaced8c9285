import { useEffect, useState } from 'react';
import { Link } from 'react-router-dom';
import { resetPassword, resetPasswordCheck, useSessionCall } from '../../api/session.ts';
import { useAppForm } from '../../ui/forms.ts';
import type { FormRules } from '../../ui/forms.ts';
import { TextField } from '../../ui/TextField.tsx';
import { Button } from '../../ui/Button.tsx';
import { es } from '../../i18n/es-core.ts';

const emailRules: FormRules<'email'> = { email: { required: true, rule: 'email' } };
const emailDefaults = { email: '' };

/** Asks for the reset link. The answer never says whether the account exists. */
export function ResetRequestForm() {
  const form = useAppForm({ defaultValues: emailDefaults, rules: emailRules });
  const [requestReset, { isLoading }] = useSessionCall(resetPassword);
  const [alert, setAlert] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = form.submit(async ({ email }) => {
    const result = await requestReset({ email });
    if (result.error) setAlert(form.applyServerError(result.error) ?? null);
    else setSentTo(email.trim());
  });

  if (sentTo) return <p className="app-form__notice" role="status">{es.auth.resetSent(sentTo)}</p>;
  return (
    <form className="app-form" onSubmit={(event) => { setAlert(null); void submit(event); }} noValidate>
      {alert && <p className="app-form__alert" role="alert">{alert}</p>}
      <TextField label={es.auth.email} type="email" autoComplete="email" {...form.field('email')} />
      <Button type="submit" loading={isLoading}>{es.auth.sendLink}</Button>
    </form>
  );
}

const passwordRules: FormRules<'password'> = { password: { required: true, rule: 'password' } };
const passwordDefaults = { password: '' };

/** /auth/reset?token=…: checks the link first, then sets the new password (resetpasscheck). */
export function NewPasswordForm({ token }: { token: string }) {
  const form = useAppForm({ defaultValues: passwordDefaults, rules: passwordRules });
  const [check, { isLoading }] = useSessionCall(resetPasswordCheck);
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

  const submit = form.submit(async ({ password }) => {
    const result = await check({ token, password });
    if (result.error) setAlert(form.applyServerError(result.error) ?? null);
    else setDone(true);
  });

  if (linkValid === false) return <p className="app-form__alert" role="alert">{es.auth.invalidLink}</p>;
  if (done) {
    return (
      <p className="app-form__notice" role="status">
        {es.auth.passwordChanged} <Link to="/auth/signin">{es.auth.signin}</Link>
      </p>
    );
  }
  return (
    <form className="app-form" onSubmit={(event) => { setAlert(null); void submit(event); }} noValidate>
      {alert && <p className="app-form__alert" role="alert">{alert}</p>}
      <TextField label={es.auth.newPassword} type="password" autoComplete="new-password" {...form.field('password')} />
      <Button type="submit" loading={isLoading || linkValid === null}>{es.auth.savePassword}</Button>
    </form>
  );
}
