import type { UserData } from '#shared/domain/user.ts';
import { useSendEmailValidationMutation } from '../../api/emailValidation.ts';
import { TOAST_DURATION_MS, useToast } from '../../app/hooks.ts';
import { es } from '../../i18n/es.ts';
import { Button } from '../../ui/Button.tsx';
import { asHttpError } from '../../ui/forms.ts';

/** The account's email, whether it is validated, and (if not) a button that emails the validation link. */
export function EmailStatus({ user }: { user: UserData }) {
  const [send, { isLoading }] = useSendEmailValidationMutation();
  const toast = useToast();

  const sendLink = async () => {
    const result = await send(user.email);
    if (result.error) toast.error(asHttpError(result.error)?.message ?? es.common.unexpectedError);
    else toast.success(es.profile.validationSent(user.email), TOAST_DURATION_MS.emailSuccess);
  };

  return (
    <p className="app-muted">
      {user.email}{' '}
      <span className={user.emailValidated ? 'ui-chip ui-chip--success' : 'ui-chip'}>
        {user.emailValidated ? es.profile.emailValidated : es.profile.emailNotValidated}
      </span>{' '}
      {!user.emailValidated && (
        <Button variant="secondary" loading={isLoading} onClick={() => void sendLink()}>
          {es.profile.sendValidation}
        </Button>
      )}
    </p>
  );
}
