import { useCallback, useEffect, useState } from 'react';
import { useParams } from 'react-router-dom';
import type { PublicForm } from '#shared/api/altas.ts';
import { BackToApp } from '../../app/shell/BackToApp.tsx';
import { Button, EmptyState, IconForm, LoadingImage } from '../../ui/index.ts';
import { form as text } from '../../i18n/es-form.ts';
import { AltaForm } from './AltaForm.tsx';
import { SignInPanel } from './SignInPanel.tsx';
import { SubmissionList } from './SubmissionList.tsx';
import { fetchPublicForm, signOutOfForm } from './publicFormApi.ts';
import './form.css';

type PageState = { status: 'loading' } | { status: 'missing' } | { status: 'failed' } | { status: 'ready'; form: PublicForm };

/**
 * The company's public form (/form/:context/:id, issue 23). A client company, never an advisor:
 * it signs in with the credentials its asesoría emailed it, sends a worker's alta and sees its own.
 */
export default function FormPage() {
  const { context = '', id = '' } = useParams();
  const formUrl = `/form/${context}/${id}`;
  const [state, setState] = useState<PageState>({ status: 'loading' });
  const [notice, setNotice] = useState<string | undefined>(undefined);

  /** Reads the form again; the page stays as it is meanwhile (a refresh after sending keeps the confirmation). */
  const load = useCallback(async () => {
    if (id === '') {
      setState({ status: 'missing' });
      return;
    }
    const result = await fetchPublicForm(id);
    if (result.ok) setState({ status: 'ready', form: result.data });
    else if (result.error.status === 404 || result.error.status === 400) setState({ status: 'missing' });
    else setState((current) => (current.status === 'ready' ? current : { status: 'failed' }));
  }, [id]);

  useEffect(() => {
    setState({ status: 'loading' });
    void load();
  }, [load]);

  const signOut = async () => {
    await signOutOfForm();
    setNotice(undefined);
    setState((current) => (current.status === 'ready' ? { status: 'ready', form: { ...current.form, session: null } } : current));
    void load();
  };

  if (state.status === 'loading') {
    return (
      <main className="ui-page ui-page--standalone form-page">
        <h1 className="ui-visually-hidden">{text.title}</h1>
        <LoadingImage caption={text.loading} />
      </main>
    );
  }
  if (state.status === 'missing' || state.status === 'failed') {
    const missing = state.status === 'missing';
    return (
      <main className="ui-page ui-page--standalone form-page">
        <h1 className="ui-visually-hidden">{text.title}</h1>
        {/* No form to fill: the page is not a dead end (a company sees the form itself, never the app's links). */}
        <BackToApp />
        <EmptyState
          icon={<IconForm />}
          title={missing ? text.missing : text.loadFailed}
          action={missing ? undefined : <Button onClick={() => void load()}>{text.retry}</Button>}
        />
      </main>
    );
  }

  const { form } = state;
  const session = form.session;
  return (
    <main className="ui-page form-page">
      <header className="form-header">
        <div className="form-header__brand">
          {form.logo && <img className="form-header__logo" src={form.logo} alt={text.logoAlt(form.title)} />}
          <h1 className="form-header__title">{form.title}</h1>
        </div>
        {session && (
          <div className="form-header__session">
            <span className="ui-muted">{text.session.signedInAs(session.email)}</span>
            <Button variant="secondary" onClick={() => void signOut()}>{text.session.signOut}</Button>
          </div>
        )}
      </header>
      {session === null ? (
        <SignInPanel
          formUrl={formUrl}
          notice={notice}
          onSignedIn={() => {
            setNotice(undefined);
            void load();
          }}
        />
      ) : (
        <>
          <AltaForm
            slug={id}
            session={session}
            onSent={() => void load()}
            onSessionLost={() => {
              setNotice(text.session.expired);
              setState({ status: 'ready', form: { ...form, session: null } });
            }}
          />
          <SubmissionList submissions={session.submissions} showCompany={session.companies.length > 1} />
        </>
      )}
    </main>
  );
}
