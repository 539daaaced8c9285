import { useState } from 'react';
import { login as loginCall, useSessionCall } from '../../api/session.ts';
import { useAppForm } from '../../ui/forms.ts';
import type { FormRules } from '../../ui/forms.ts';
import { TextField } from '../../ui/TextField.tsx';
import { Button } from '../../ui/Button.tsx';
import { es } from '../../i18n/es-core.ts';

type Field = 'email' | 'password';
const rules: FormRules<Field> = { email: { required: true, rule: 'email' }, password: { required: true } };
const defaultValues: Record<Field, string> = { email: '', password: '' };

/** On success the session slice is signed in and the route guard takes the user on. */
export function SignInForm() {
  const form = useAppForm({ defaultValues, rules });
  const [login, { isLoading }] = useSessionCall(loginCall);
  const [alert, setAlert] = useState<string | null>(null);

  const submit = form.submit(async (values) => {
    const result = await login({ email: values.email, password: values.password });
    if (result.error) setAlert(form.applyServerError(result.error) ?? null);
  });

  return (
    <form className="app-form" onSubmit={(event) => { setAlert(null); void submit(event); }} noValidate>
      {alert && <p className="app-form__alert" role="alert">{alert}</p>}
      <TextField label={es.auth.email} type="email" autoComplete="email" {...form.field('email')} />
      <TextField label={es.auth.password} type="password" autoComplete="current-password" {...form.field('password')} />
      <Button type="submit" loading={isLoading}>{es.auth.signin}</Button>
    </form>
  );
}
