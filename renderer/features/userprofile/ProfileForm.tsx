import { useState } from 'react';
import type { UserData } from '#shared/domain/user.ts';
import { useUpdateProfileMutation } from '../../api/account.ts';
import { useAppForm } from '../../ui/forms.ts';
import type { FormRules } from '../../ui/forms.ts';
import { useToast } from '../../app/hooks.ts';
import { TextField } from '../../ui/TextField.tsx';
import { Button } from '../../ui/Button.tsx';
import { es } from '../../i18n/es.ts';

const rules: FormRules<'name'> = { name: { required: true } };

export function ProfileForm({ user }: { user: UserData }) {
  const form = useAppForm({ defaultValues: { name: user.name }, rules });
  const [update, { isLoading }] = useUpdateProfileMutation();
  const [alert, setAlert] = useState<string | null>(null);
  const toast = useToast();

  const submit = form.submit(async ({ name }) => {
    // Spanish is the only language with translations: saving the profile records it (spec: es, en, ca stay valid values).
    const result = await update({ name: name.trim(), language: 'es' });
    if (result.error) setAlert(form.applyServerError(result.error) ?? null);
    else toast.success(es.profile.saved);
  });

  return (
    <form className="app-card app-form" onSubmit={(event) => { setAlert(null); void submit(event); }} noValidate aria-labelledby="profile-personal">
      <h2 id="profile-personal">{es.profile.personal}</h2>
      {alert && <p className="app-form__alert" role="alert">{alert}</p>}
      <TextField label={es.auth.name} autoComplete="name" {...form.field('name')} />
      <div className="app-field">
        <span className="app-field__label">{es.profile.language}</span>
        <p className="app-field__static">
          {es.profile.spanish} <span className="app-muted">· {es.profile.spanishOnly}</span>
        </p>
      </div>
      <Button type="submit" loading={isLoading}>{es.common.save}</Button>
    </form>
  );
}
