import { useState } from 'react';
import type { FormEvent } from 'react';
import { useUpdateProfileMutation } from '../../api/session.ts';
import { useForm } from '../../ui/forms.ts';
import type { FormRules } from '../../ui/forms.ts';
import { useToast } from '../../app/hooks.ts';
import { TextField } from '../../ui/TextField.tsx';
import { Button } from '../../ui/Button.tsx';
import { es } from '../../i18n/es.ts';

type Field = 'currentPassword' | 'newPassword';
const rules: FormRules<Field> = { currentPassword: { required: true }, newPassword: { required: true, rule: 'password' } };
const initial: Record<Field, string> = { currentPassword: '', newPassword: '' };

/** The server checks the current password and signs out the user's other devices. */
export function PasswordForm() {
  const form = useForm(initial, rules);
  const [update, { isLoading }] = useUpdateProfileMutation();
  const [alert, setAlert] = useState<string | null>(null);
  const toast = useToast();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAlert(null);
    if (!form.validateAll()) return;
    const result = await update({ currentPassword: form.values.currentPassword, newPassword: form.values.newPassword });
    if (result.error) {
      setAlert(form.applyServerError(result.error) ?? null);
      return;
    }
    form.reset();
    toast.success(es.profile.passwordChanged);
  };

  return (
    <form className="app-card app-form" onSubmit={(event) => void submit(event)} noValidate aria-labelledby="profile-password">
      <h2 id="profile-password">{es.profile.passwordTitle}</h2>
      {alert && <p className="app-form__alert" role="alert">{alert}</p>}
      <TextField label={es.profile.currentPassword} type="password" autoComplete="current-password" value={form.values.currentPassword}
        error={form.errors.currentPassword} onValueChange={(value) => form.setValue('currentPassword', value)}
        onBlur={() => form.validateField('currentPassword')} />
      <TextField label={es.profile.newPassword} type="password" autoComplete="new-password" value={form.values.newPassword}
        error={form.errors.newPassword} onValueChange={(value) => form.setValue('newPassword', value)}
        onBlur={() => form.validateField('newPassword')} />
      <Button type="submit" loading={isLoading}>{es.profile.changePassword}</Button>
    </form>
  );
}
