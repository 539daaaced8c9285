import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import type { AcceptInvitation, InvitationPreview } from '#shared/api/colleagues.ts';
import { acceptInvitation, useSessionCall } from '../../api/session.ts';
import { asHttpError, useAppForm } from '../../ui/forms.ts';
import type { FormRules } from '../../ui/forms.ts';
import { Button } from '../../ui/Button.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { colleagues as text } from '../../i18n/es-colleagues.ts';

type Field = 'name' | 'password';
/** The sign-up rules: the same shared validators the registration form uses. */
const rules: FormRules<Field> = { name: { required: true }, password: { required: true, rule: 'password' } };
const defaultValues: Record<Field, string> = { name: '', password: '' };

const accept = ({ token, body }: { token: string; body: AcceptInvitation }) => acceptInvitation(token, body);

export interface JoinFormProps {
  token: string;
  preview: InvitationPreview;
  /** The link stopped working after the preview loaded (expired, revoked or used meanwhile). */
  onGone: () => void;
  onNotFound: () => void;
}

/** Name and password for the invited email; joining signs the new colleague in and opens Inicio. */
export function JoinForm({ token, preview, onGone, onNotFound }: JoinFormProps) {
  const form = useAppForm({ defaultValues, rules });
  const [join, { isLoading }] = useSessionCall(accept);
  const [alert, setAlert] = useState<string | null>(null);
  const navigate = useNavigate();

  const submit = form.submit(async ({ name, password }) => {
    const result = await join({ token, body: { name: name.trim(), password } });
    if (!result.error) {
      void navigate('/home', { replace: true });
      return;
    }
    const status = asHttpError(result.error)?.status;
    if (status === 410) onGone();
    else if (status === 404) onNotFound();
    else setAlert(form.applyServerError(result.error) ?? null);
  });

  return (
    <form className="app-form" onSubmit={(event) => { setAlert(null); void submit(event); }} noValidate>
      {alert && <p className="app-form__alert" role="alert">{alert}</p>}
      <TextField label={text.invitation.email} type="email" value={preview.email} readOnly />
      <TextField label={text.invitation.name} autoComplete="name" {...form.field('name')} />
      <TextField label={text.invitation.password} type="password" autoComplete="new-password" {...form.field('password')} />
      <Button type="submit" loading={isLoading}>{text.invitation.join(preview.firmName)}</Button>
    </form>
  );
}
