import { useState } from 'react';
import type { ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { EMAIL_TAKEN_ELSEWHERE_MESSAGE, INVITATION_GONE_MESSAGE, INVITATION_NOT_FOUND_MESSAGE, invitationTokenSchema } from '#shared/api/colleagues.ts';
import { useInvitationPreviewQuery } from '../../api/colleagues.ts';
import { asHttpError } from '../../ui/forms.ts';
import { Button } from '../../ui/Button.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { es } from '../../i18n/es-core.ts';
import { colleagues as text } from '../../i18n/es-colleagues.ts';
import { JoinForm } from './JoinForm.tsx';

type DeadEnd = 'gone' | 'notFound';

/** The auth screen's centred card, without the app's chrome. */
function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="app-auth">
      <section className="app-card app-auth__card" aria-labelledby="invitation-title">
        <p className="app-topbar__brand">{es.appName}</p>
        <h1 id="invitation-title">{title}</h1>
        {children}
      </section>
    </main>
  );
}

/** A link that no longer works, or never did: the reason and the way to sign in. */
function DeadEndCard({ kind }: { kind: DeadEnd }) {
  return (
    <Card title={kind === 'gone' ? text.invitation.goneTitle : text.invitation.notFoundTitle}>
      <p className="app-form__alert" role="alert">{kind === 'gone' ? INVITATION_GONE_MESSAGE : INVITATION_NOT_FOUND_MESSAGE}</p>
      <nav className="app-auth__links">
        <Link to="/auth">{text.invitation.toSignin}</Link>
      </nav>
    </Card>
  );
}

/**
 * /invitacion/:token — the link a firm's owner emailed. It shows who invites to which firm, then the
 * new colleague picks a name and a password and is signed in. A malformed token is not asked about.
 */
export default function InvitationPage() {
  const token = useParams().token ?? '';
  const wellFormed = invitationTokenSchema.safeParse(token).success;
  const { data, error, isLoading, isFetching, refetch } = useInvitationPreviewQuery(token, { skip: !wellFormed });
  const [deadEnd, setDeadEnd] = useState<DeadEnd | null>(null);

  const status = asHttpError(error)?.status;
  if (!wellFormed || deadEnd === 'notFound' || status === 404 || status === 400) return <DeadEndCard kind="notFound" />;
  if (deadEnd === 'gone' || status === 410) return <DeadEndCard kind="gone" />;

  if (isLoading) {
    return (
      <main className="app-auth">
        <Spinner size="large" label={text.invitation.loading} />
      </main>
    );
  }
  if (!data) {
    return (
      <Card title={text.invitation.loadFailed}>
        <Button variant="secondary" loading={isFetching} onClick={() => void refetch()}>{text.invitation.retry}</Button>
      </Card>
    );
  }
  if (data.accountElsewhere) {
    // The address has an account with another firm: joining would be refused, so no form to fill in.
    return (
      <Card title={text.invitation.elsewhereTitle}>
        <p className="app-form__alert" role="alert">{EMAIL_TAKEN_ELSEWHERE_MESSAGE}</p>
        <nav className="app-auth__links">
          <Link to="/auth">{text.invitation.toSignin}</Link>
        </nav>
      </Card>
    );
  }
  return (
    <Card title={text.invitation.title(data.invitedBy, data.firmName)}>
      <JoinForm token={token} preview={data} onGone={() => setDeadEnd('gone')} onNotFound={() => setDeadEnd('notFound')} />
    </Card>
  );
}
