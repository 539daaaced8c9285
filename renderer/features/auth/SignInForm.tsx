import { useState } from 'react';
import type { FormEvent } from 'react';
import { useLoginMutation } from '../../api/session.ts';
import { useForm } from '../../ui/forms.ts';
import type { FormRules } from '../../ui/forms.ts';
import { TextField } from '../../ui/TextField.tsx';
import { Button } from '../../ui/Button.tsx';
import { es } from '../../i18n/es.ts';

type Field = 'email' | 'password';
const rules: FormRules<Field> = { email: { required: true, rule: 'email' }, password: { required: true } };
const initial: Record<Field, string> = { email: '', password: '' };

/** On success the session slice is signed in and the route guard takes the user on. */
export function SignInForm() {
  const form = useForm(initial, rules);
  const [login, { isLoading }] = useLoginMutation();
  const [alert, setAlert] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (!form.validateAll()) return;
    const result = await login({ email: form.values.email, password: form.values.password });
    if (result.error) setAlert(form.applyServerError(result.error) ?? null);
  };

  return (
    <form className="app-form" onSubmit={(event) => void submit(event)} noValidate>
      {alert && <p className="app-form__alert" role="alert">{alert}</p>}
      <TextField label={es.auth.email} type="email" autoComplete="email" value={form.values.email} error={form.errors.email}
        onValueChange={(value) => form.setValue('email', value)} onBlur={() => form.validateField('email')} />
      <TextField label={es.auth.password} type="password" autoComplete="current-password" value={form.values.password} error={form.errors.password}
        onValueChange={(value) => form.setValue('password', value)} onBlur={() => form.validateField('password')} />
      <Button type="submit" loading={isLoading}>{es.auth.signin}</Button>
    </form>
  );
}
