import { useState } from 'react';
import type { UserData } from '#shared/domain/user.ts';
import { useRenameFirmMutation } from '../../api/groups.ts';
import { useAppDispatch, useSession, useToast } from '../../app/hooks.ts';
import { userUpdated } from '../../app/session.ts';
import { es } from '../../i18n/es.ts';
import { Button } from '../../ui/Button.tsx';
import { asHttpError, useAppForm } from '../../ui/forms.ts';
import type { FormRules } from '../../ui/forms.ts';
import { TextField } from '../../ui/TextField.tsx';

const text = es.profile.firm;
const rules: FormRules<'name'> = { name: { required: true } };

/**
 * 'Tu asesoría' (issue 44 §6): the firm's name, which starts as the owner's own. The owner changes it
 * (invitations, company mails and support read it); a member sees it. A save updates the session's
 * user, so every screen that names the firm follows at once.
 */
export function FirmNameForm() {
  const { user } = useSession();
  return user ? <FirmNameFields user={user} /> : null;
}

function FirmNameFields({ user }: { user: UserData }) {
  const isOwner = user.role === 'owner';
  const form = useAppForm({ defaultValues: { name: user.group.name }, rules });
  const [rename, { isLoading }] = useRenameFirmMutation();
  const [alert, setAlert] = useState<string | null>(null);
  const dispatch = useAppDispatch();
  const toast = useToast();

  const submit = form.submit(async ({ name }) => {
    const result = await rename({ name: name.trim() });
    if (result.error) {
      const http = asHttpError(result.error);
      setAlert(http && http.status >= 400 && http.status < 500 ? (form.applyServerError(http) ?? null) : text.saveFailed);
      return;
    }
    dispatch(userUpdated({ ...user, group: { ...user.group, name: result.data.name } }));
    form.reset({ name: result.data.name });
    toast.success(text.saved);
  });

  return (
    <form className="app-card app-form" id="asesoria" onSubmit={(event) => { setAlert(null); void submit(event); }} noValidate aria-labelledby="profile-firm">
      <h2 id="profile-firm">{text.title}</h2>
      <p className="app-muted">{text.hint}</p>
      {isOwner && user.group.name === user.name && <p className="app-form__notice" role="status">{text.stillYourName}</p>}
      {alert && <p className="app-form__alert" role="alert">{alert}</p>}
      {isOwner ? (
        <>
          <TextField label={text.name} autoComplete="organization" maxLength={120} {...form.field('name')} />
          <div>
            <Button type="submit" loading={isLoading}>{text.save}</Button>
          </div>
        </>
      ) : (
        <div className="app-field">
          <span className="app-field__label">{text.name}</span>
          <p className="app-field__static">
            {user.group.name} <span className="app-muted">· {text.readOnly}</span>
          </p>
        </div>
      )}
    </form>
  );
}
