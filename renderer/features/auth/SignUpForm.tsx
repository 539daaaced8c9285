import { useState } from 'react';
import { register as registerCall, useSessionCall } from '../../api/session.ts';
import { useAppForm } from '../../ui/forms.ts';
import type { FormRules } from '../../ui/forms.ts';
import { TextField } from '../../ui/TextField.tsx';
import { Button } from '../../ui/Button.tsx';
import { es } from '../../i18n/es-core.ts';

type Field = 'name' | 'email' | 'password';
const rules: FormRules<Field> = {
  name: { required: true },
  email: { required: true, rule: 'email' },
  password: { required: true, rule: 'password' },
};
const defaultValues: Record<Field, string> = { name: '', email: '', password: '' };

/** Registration signs the new user in straight away (the server sets the session cookies). */
export function SignUpForm() {
  const form = useAppForm({ defaultValues, rules });
  const [register, { isLoading }] = useSessionCall(registerCall);
  const [alert, setAlert] = useState<string | null>(null);

  const submit = form.submit(async (values) => {
    const result = await register({ name: values.name, email: values.email, password: values.password });
    if (result.error) setAlert(form.applyServerError(result.error) ?? null);
  });

  return (
    <form className="app-form" onSubmit={(event) => { setAlert(null); void submit(event); }} noValidate>
      {alert && <p className="app-form__alert" role="alert">{alert}</p>}
      <TextField label={es.auth.name} autoComplete="name" {...form.field('name')} />
      <TextField label={es.auth.email} type="email" autoComplete="email" {...form.field('email')} />
      <TextField label={es.auth.password} type="password" autoComplete="new-password" {...form.field('password')} />
      <Button type="submit" loading={isLoading}>{es.auth.signup}</Button>
    </form>
  );
}
