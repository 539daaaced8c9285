import { useId, useState } from 'react';
import { MAX_LINK_RECIPIENTS } from '#shared/api/onlineforms.ts';
import type { HttpError } from '../../../api/baseApi.ts';
import { useSendOnlineFormLinkMutation } from '../../../api/onlineForms.ts';
import { useToast } from '../../../app/hooks.ts';
import { formsTab as text } from '../../../i18n/es-onlineforms.ts';
import { Button } from '../../../ui/index.ts';
import { Modal } from '../../../ui/Modal.tsx';
import { looksLikeEmail, recipientsOf } from './formEditorModel.ts';

export interface SendLinkDialogProps {
  formId: string;
  open: boolean;
  onClose: () => void;
}

/** Why the recipients cannot be sent to, or null. */
export function recipientsProblem(emails: readonly string[]): string | null {
  if (emails.length === 0) return text.send.noEmails;
  if (emails.length > MAX_LINK_RECIPIENTS) return text.send.tooMany(MAX_LINK_RECIPIENTS);
  const bad = emails.filter((email) => !looksLikeEmail(email));
  return bad.length > 0 ? text.send.badEmails(bad.join(', ')) : null;
}

/** 'Enviar por correo': the public link mailed to the clients, with a message of the advisor's. */
export function SendLinkDialog({ formId, open, onClose }: SendLinkDialogProps) {
  if (!open) return null;
  return <SendLinkDialogOpen formId={formId} onClose={onClose} />;
}

function SendLinkDialogOpen({ formId, onClose }: Omit<SendLinkDialogProps, 'open'>) {
  const [send, sending] = useSendOnlineFormLinkMutation();
  const toast = useToast();
  const [emails, setEmails] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const submit = async () => {
    const list = recipientsOf(emails);
    const problem = recipientsProblem(list);
    setError(problem);
    if (problem !== null) return;
    try {
      const sent = await send({ id: formId, body: { emails: list, message: message.trim() } }).unwrap();
      toast.success(text.send.sent(sent));
      onClose();
    } catch (failure) {
      const httpError = failure as HttpError;
      setError(httpError.data?.issues?.[0]?.message ?? httpError.message ?? text.actions.failed);
    }
  };

  return (
    <Modal
      open
      size="medium"
      title={text.send.title}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{text.send.cancel}</Button>
          <Button loading={sending.isLoading} onClick={() => void submit()}>{text.send.submit}</Button>
        </>
      }
    >
      <div className="forms-send">
        <div className={`app-field forms-field${error ? ' app-field--invalid' : ''}`}>
          <label htmlFor={`${id}-emails`}>{text.send.emails}</label>
          <textarea
            id={`${id}-emails`}
            className="ui-input"
            rows={3}
            value={emails}
            inputMode="email"
            autoCapitalize="off"
            spellCheck={false}
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-hint ${id}-error`}
            onChange={(event) => setEmails(event.target.value)}
          />
          <p id={`${id}-hint`} className="ui-muted forms-hint">{text.send.emailsHint}</p>
          <p className="app-field__error"><span id={`${id}-error`}>{error}</span></p>
        </div>
        <div className="app-field forms-field">
          <label htmlFor={`${id}-message`}>{text.send.message}</label>
          <textarea id={`${id}-message`} className="ui-input" rows={4} maxLength={2000} value={message} onChange={(event) => setMessage(event.target.value)} />
        </div>
      </div>
    </Modal>
  );
}
