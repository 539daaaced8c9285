import { useState } from 'react';
import { useInviteColleagueMutation } from '../../api/colleagues.ts';
import { asHttpError, errorMessage, useAppForm } from '../../ui/forms.ts';
import type { FormRules } from '../../ui/forms.ts';
import { Button } from '../../ui/Button.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { colleagues as text } from '../../i18n/es-colleagues.ts';

type Field = 'email';
const rules: FormRules<Field> = { email: { required: true, rule: 'email' } };
const defaultValues: Record<Field, string> = { email: '' };

/**
 * The owner's 'Invitar a un compañero'. A 409 (already a member, invited, or with another firm)
 * is about the address typed, so it shows on the field; the sent notice stays until the next try.
 */
export function InviteForm() {
  const form = useAppForm({ defaultValues, rules });
  const [invite, { isLoading }] = useInviteColleagueMutation();
  const [alert, setAlert] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);

  const submit = form.submit(async ({ email }) => {
    const result = await invite({ email: email.trim() });
    if (result.error) {
      const http = asHttpError(result.error);
      if (http?.status === 409) form.setError('email', { type: 'server', message: errorMessage(http, text.invite.failed) });
      else setAlert(http && http.status >= 400 && http.status < 500 ? (form.applyServerError(http) ?? null) : text.invite.failed);
      return;
    }
    form.reset();
    setSentTo(result.data.email);
  });

  return (
    <form
      className="colleagues__invite app-form"
      onSubmit={(event) => { setAlert(null); setSentTo(null); void submit(event); }}
      noValidate
      aria-labelledby="colleagues-invite"
    >
      <h3 id="colleagues-invite">{text.invite.title}</h3>
      <p className="colleagues__note">{text.invite.hint}</p>
      {alert && <p className="app-form__alert" role="alert">{alert}</p>}
      {sentTo && <p className="app-form__notice" role="status">{text.invite.sent(sentTo)}</p>}
      <TextField label={text.invite.email} type="email" autoComplete="off" {...form.field('email')} />
      <div>
        <Button type="submit" loading={isLoading}>{text.invite.send}</Button>
      </div>
    </form>
  );
}
