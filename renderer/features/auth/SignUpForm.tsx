import { useState } from 'react';
import type { FormEvent } from 'react';
import { useRegisterMutation } from '../../api/session.ts';
import { useForm } from '../../ui/forms.ts';
import type { FormRules } from '../../ui/forms.ts';
import { TextField } from '../../ui/TextField.tsx';
import { Button } from '../../ui/Button.tsx';
import { es } from '../../i18n/es.ts';

type Field = 'name' | 'email' | 'password';
const rules: FormRules<Field> = {
  name: { required: true },
  email: { required: true, rule: 'email' },
  password: { required: true, rule: 'password' },
};
const initial: Record<Field, string> = { name: '', email: '', password: '' };

/** Registration signs the new user in straight away (the server sets the session cookies). */
export function SignUpForm() {
  const form = useForm(initial, rules);
  const [register, { isLoading }] = useRegisterMutation();
  const [alert, setAlert] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (!form.validateAll()) return;
    const result = await register({ name: form.values.name, email: form.values.email, password: form.values.password });
    if (result.error) setAlert(form.applyServerError(result.error) ?? null);
  };

  return (
    <form className="app-form" onSubmit={(event) => void submit(event)} noValidate>
      {alert && <p className="app-form__alert" role="alert">{alert}</p>}
      <TextField label={es.auth.name} autoComplete="name" value={form.values.name} error={form.errors.name}
        onValueChange={(value) => form.setValue('name', value)} onBlur={() => form.validateField('name')} />
      <TextField label={es.auth.email} type="email" autoComplete="email" value={form.values.email} error={form.errors.email}
        onValueChange={(value) => form.setValue('email', value)} onBlur={() => form.validateField('email')} />
      <TextField label={es.auth.password} type="password" autoComplete="new-password" value={form.values.password} error={form.errors.password}
        onValueChange={(value) => form.setValue('password', value)} onBlur={() => form.validateField('password')} />
      <Button type="submit" loading={isLoading}>{es.auth.signup}</Button>
    </form>
  );
}
