import { useSearchParams } from 'react-router-dom';
import type { OAuthCompleteRequest } from '#shared/api/mail.ts';
import { BackToApp } from '../../app/shell/BackToApp.tsx';
import { screens } from '../../i18n/es-screens.ts';
import { EmptyState, IconAlert, IconCheck, IconInfo } from '../../ui/index.ts';
import { MailLinkCompletion } from './MailLinkCompletion.tsx';

const text = screens.oauth;

/** What the provider sent back, as the server's completion takes it; null without a state (nothing to complete). */
function completionRequest(params: URLSearchParams): OAuthCompleteRequest | null {
  const state = params.get('state');
  const code = params.get('code');
  const error = params.get('error');
  if (!state || (!code && !error)) return null;
  const description = params.get('error_description');
  return code ? { state, code } : { state, error: error ?? '', ...(description ? { errorDescription: description } : {}) };
}

/**
 * Where Google or Microsoft send the user back after authorising a mailbox (issue 25's web flow): with
 * a state, the server redeems it and the email wizard continues; without one it reports what arrived.
 */
export default function OAuthResponsePage() {
  const [params] = useSearchParams();
  const request = completionRequest(params);
  if (request !== null)
    return (
      <main className="ui-page ui-page--standalone">
        <h1 className="ui-visually-hidden">{text.title}</h1>
        <BackToApp />
        <MailLinkCompletion request={request} />
      </main>
    );

  const error = params.get('error');
  const code = params.get('code');
  const outcome = error
    ? { icon: <IconAlert />, title: text.errorTitle, detail: text.errorText(params.get('error_description') ?? error) }
    : code
      ? { icon: <IconCheck />, title: text.successTitle, detail: text.successText }
      : { icon: <IconInfo />, title: text.missingTitle, detail: text.missingText };

  return (
    <main className="ui-page ui-page--standalone">
      <h1 className="ui-visually-hidden">{text.title}</h1>
      <BackToApp />
      <div role={error ? 'alert' : 'status'}>
        <EmptyState icon={outcome.icon} title={outcome.title} text={`${outcome.detail} ${text.closeWindow}`} />
      </div>
    </main>
  );
}
