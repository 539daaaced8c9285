import { useState } from 'react';
import { useUpdateProfileMutation } from '../../api/account.ts';
import { useAppForm } from '../../ui/forms.ts';
import type { FormRules } from '../../ui/forms.ts';
import { useToast } from '../../app/hooks.ts';
import { TextField } from '../../ui/TextField.tsx';
import { Button } from '../../ui/Button.tsx';
import { es } from '../../i18n/es.ts';

type Field = 'currentPassword' | 'newPassword';
const rules: FormRules<Field> = { currentPassword: { required: true }, newPassword: { required: true, rule: 'password' } };
const defaultValues: Record<Field, string> = { currentPassword: '', newPassword: '' };

/** The server checks the current password and signs out the user's other devices. */
export function PasswordForm() {
  const form = useAppForm({ defaultValues, rules });
  const [update, { isLoading }] = useUpdateProfileMutation();
  const [alert, setAlert] = useState<string | null>(null);
  const toast = useToast();

  const submit = form.submit(async ({ currentPassword, newPassword }) => {
    const result = await update({ currentPassword, newPassword });
    if (result.error) {
      setAlert(form.applyServerError(result.error) ?? null);
      return;
    }
    form.reset();
    toast.success(es.profile.passwordChanged);
  });

  return (
    <form className="app-card app-form" onSubmit={(event) => { setAlert(null); void submit(event); }} noValidate aria-labelledby="profile-password">
      <h2 id="profile-password">{es.profile.passwordTitle}</h2>
      {alert && <p className="app-form__alert" role="alert">{alert}</p>}
      <TextField label={es.profile.currentPassword} type="password" autoComplete="current-password" {...form.field('currentPassword')} />
      <TextField label={es.profile.newPassword} type="password" autoComplete="new-password" {...form.field('newPassword')} />
      <Button type="submit" loading={isLoading}>{es.profile.changePassword}</Button>
    </form>
  );
}
