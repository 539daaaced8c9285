import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { useSessionCall, validateEmail } from '../../api/session.ts';
import { es } from '../../i18n/es-core.ts';
import { asHttpError } from '../../ui/forms.ts';

type Outcome = { kind: 'validating' } | { kind: 'validated' } | { kind: 'failed'; message: string };

/**
 * /auth/emailvalidation?email=…&token=… — the emailed link. It spends the token once on mount; no
 * session is needed, since the link is often opened on another device.
 */
export function EmailValidation({ email, token }: { email: string | null; token: string | null }) {
  const [validate] = useSessionCall(validateEmail);
  const complete = email !== null && email !== '' && token !== null && token !== '';
  const [outcome, setOutcome] = useState<Outcome>(complete ? { kind: 'validating' } : { kind: 'failed', message: es.auth.invalidLink });
  // The token is single-use: StrictMode's second effect run must not post it again.
  const asked = useRef(false);

  useEffect(() => {
    if (!complete || asked.current) return;
    asked.current = true;
    void validate({ email, token }).then((result) => {
      setOutcome(result.error ? { kind: 'failed', message: asHttpError(result.error)?.message ?? es.common.unexpectedError } : { kind: 'validated' });
    });
  }, [complete, email, token, validate]);

  if (outcome.kind === 'validating') return <p role="status">{es.auth.validatingEmail}</p>;
  if (outcome.kind === 'failed') {
    return (
      <>
        <p className="app-form__alert" role="alert">{outcome.message}</p>
        <nav className="app-auth__links">
          <Link to="/auth/signin">{es.auth.backToSignin}</Link>
        </nav>
      </>
    );
  }
  return (
    <>
      <p className="app-form__notice" role="status">{es.auth.emailValidated(email ?? '')}</p>
      <nav className="app-auth__links">
        <Link to="/home">{es.auth.goHome}</Link>
      </nav>
    </>
  );
}
