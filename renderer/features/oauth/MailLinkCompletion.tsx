import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { MailAccount, OAuthCompleteRequest } from '#shared/api/mail.ts';
import { useCompleteMailOAuthMutation } from '../../api/mail.ts';
import { useToast } from '../../app/hooks.ts';
import { mail } from '../../i18n/es-mail.ts';
import { asHttpError, errorMessage } from '../../ui/forms.ts';
import { EmptyState, IconAlert, IconCheck, Spinner } from '../../ui/index.ts';
import { mailWizardPath, mailWizardWaiting } from './wizardReturn.ts';

const text = mail.oauth;

type Outcome = { kind: 'linked'; account: MailAccount } | { kind: 'failed'; message: string } | { kind: 'signed-out' };

/**
 * A state is single use: the first POST consumes it and a second would fail. So each state is
 * completed once per page load, whatever React does with effects (strict mode runs them twice) or
 * remounts; a second mount waits on the first one's answer.
 */
const completions = new Map<string, Promise<Outcome>>();

function outcomeOf(error: unknown): Outcome {
  const http = asHttpError(error);
  if (http?.status === 401) return { kind: 'signed-out' };
  return { kind: 'failed', message: errorMessage(error, mail.account.completeFailed) };
}

/** /oauth-response with a state: the web flow's end, redeemed by the server, then back to the wizard if one is waiting. */
export function MailLinkCompletion({ request }: { request: OAuthCompleteRequest }) {
  const [complete] = useCompleteMailOAuthMutation();
  const navigate = useNavigate();
  const toast = useToast();
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  useEffect(() => {
    let live = true;
    let pending = completions.get(request.state);
    if (!pending) {
      pending = complete(request)
        .unwrap()
        .then((account): Outcome => ({ kind: 'linked', account }), outcomeOf);
      completions.set(request.state, pending);
    }
    void pending.then((result) => {
      if (!live) return;
      setOutcome(result);
      if (result.kind === 'linked' && mailWizardWaiting()) {
        toast.success(mail.account.connected(result.account.email));
        navigate(mailWizardPath(result.account._id), { replace: true });
      }
    });
    return () => {
      live = false;
    };
    // One completion per state: the request object is rebuilt every render from the same query.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request.state]);

  if (outcome === null) return <Spinner label={text.completing} />;
  const wizardLink = mailWizardWaiting() ? (
    <Link to={mailWizardPath(outcome.kind === 'linked' ? outcome.account._id : null)}>{text.backToWizard}</Link>
  ) : undefined;
  if (outcome.kind === 'linked')
    return (
      <div role="status">
        <EmptyState icon={<IconCheck />} title={text.connectedTitle} text={text.connectedText(outcome.account.email)} action={wizardLink} />
      </div>
    );
  if (outcome.kind === 'signed-out')
    return (
      <div role="alert">
        <EmptyState icon={<IconAlert />} title={text.failedTitle} text={text.signedOut} action={<Link to="/auth">{text.signIn}</Link>} />
      </div>
    );
  return (
    <div role="alert">
      <EmptyState icon={<IconAlert />} title={text.failedTitle} text={outcome.message} action={wizardLink} />
    </div>
  );
}
