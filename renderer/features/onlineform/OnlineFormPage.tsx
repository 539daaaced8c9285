import { useCallback, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router-dom';
import { FORM_CLOSED_MESSAGE } from '#shared/api/onlineforms.ts';
import type { PublicOnlineForm } from '#shared/api/onlineforms.ts';
import { BackToApp } from '../../app/shell/BackToApp.tsx';
import { onlineForm as text } from '../../i18n/es-onlineforms.ts';
import { Button, EmptyState, IconCheck, IconForm, LoadingImage } from '../../ui/index.ts';
import { OnlineFormFill } from './OnlineFormFill.tsx';
import { fetchOnlineForm } from './publicOnlineFormApi.ts';
import './onlineform.css';

type PageState =
  | { status: 'loading' }
  | { status: 'missing' }
  | { status: 'closed' }
  | { status: 'failed' }
  | { status: 'ready'; form: PublicOnlineForm }
  | { status: 'sent'; form: PublicOnlineForm; receivedAt: string };

/** '2 de diciembre de 2026, 11:05' in Madrid's time. */
export function formatReceivedAt(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat('es-ES', { dateStyle: 'long', timeStyle: 'short', timeZone: 'Europe/Madrid' }).format(date);
}

/**
 * /online-form/:id (issue 40 §2): a client, usually on a phone, fills the form its asesoría sent and
 * signs it. Public: no session, and nothing but the form's own public calls.
 */
export default function OnlineFormPage() {
  const { id = '' } = useParams();
  const [state, setState] = useState<PageState>(() => (id === '' ? { status: 'missing' } : { status: 'loading' }));
  const doneRef = useRef<HTMLHeadingElement>(null);

  const load = useCallback(async () => {
    if (id === '') {
      setState({ status: 'missing' });
      return;
    }
    setState({ status: 'loading' });
    const result = await fetchOnlineForm(id);
    if (result.ok) setState({ status: 'ready', form: result.data });
    else if (result.error.status === 404 || result.error.status === 400) setState({ status: 'missing' });
    else if (result.error.status === 410) setState({ status: 'closed' });
    else setState({ status: 'failed' });
  }, [id]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (state.status === 'sent') {
      window.scrollTo?.({ top: 0 });
      doneRef.current?.focus();
    }
  }, [state.status]);

  if (state.status === 'loading') {
    return (
      <main className="ui-page onlineform-page">
        <h1 className="ui-visually-hidden">{text.pageTitle}</h1>
        <LoadingImage caption={text.loading} />
      </main>
    );
  }
  if (state.status === 'missing' || state.status === 'closed' || state.status === 'failed') {
    const title = state.status === 'closed' ? FORM_CLOSED_MESSAGE : state.status === 'failed' ? text.loadFailed : id === '' ? text.noLink : text.missing;
    return (
      <main className="ui-page onlineform-page">
        <h1 className="ui-visually-hidden">{text.pageTitle}</h1>
        {/* No form to fill: the page is not a dead end (the form itself never shows the app's links). */}
        <BackToApp />
        <EmptyState
          icon={<IconForm />}
          title={title}
          action={state.status === 'failed' ? <Button onClick={() => void load()}>{text.retry}</Button> : undefined}
        />
      </main>
    );
  }

  const { form } = state;
  return (
    <main className="ui-page onlineform-page">
      <header className="onlineform-header">
        <p className="onlineform-header__firm">{text.from(form.firmName)}</p>
        <h1 className="onlineform-header__title">{form.title}</h1>
        {form.description.trim() !== '' && state.status === 'ready' && <p className="onlineform-header__description">{form.description}</p>}
      </header>
      {state.status === 'sent' ? (
        <section className="ui-card ui-section onlineform-card onlineform-done" aria-labelledby="onlineform-done-title">
          <IconCheck size={40} className="onlineform-done__icon" />
          <h2 id="onlineform-done-title" className="ui-section__title" ref={doneRef} tabIndex={-1}>{text.done.title}</h2>
          <p role="status">{text.done.message(formatReceivedAt(state.receivedAt))}</p>
        </section>
      ) : (
        <OnlineFormFill
          publicId={id}
          form={form}
          onSent={(receivedAt) => setState({ status: 'sent', form, receivedAt })}
          onGone={(status) => setState({ status: status === 410 ? 'closed' : 'missing' })}
        />
      )}
    </main>
  );
}
