import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { newReplySchema, TICKET_MAX_ATTACHMENTS } from '#shared/api/support.ts';
import type { NewReply } from '#shared/api/support.ts';
import { support } from '../i18n/es-support.ts';
import { AttachmentsField } from './AttachmentsField.tsx';
import { Button } from './Button.tsx';
import { MessageField } from './MessageField.tsx';
import { useAttachments } from './useAttachments.ts';
import type { AttachmentUploader } from './useAttachments.ts';

const text = support.reply;

export interface ReplyFormProps {
  /** Sends the reply; rejects with the message to show when the server refuses it. */
  onSend: (reply: NewReply) => Promise<void>;
  upload: AttachmentUploader;
  /** The line under the button: what sending does (reopens the ticket, emails the user). */
  note: string;
}

/** The reply box under a thread: the message, its files, 'Responder'. Cleared once the reply is sent. */
export function ReplyForm({ onSend, upload, note }: ReplyFormProps) {
  const attachments = useAttachments(upload, TICKET_MAX_ATTACHMENTS);
  const [failure, setFailure] = useState<string | null>(null);
  // Said once the reply is in the thread, for those who do not see it appear.
  const [sent, setSent] = useState(false);
  // Files travel beside the form (each uploads on its own); the schema checks the message.
  const { register, handleSubmit, reset, formState } = useForm({ defaultValues: { body: '' }, resolver: zodResolver(newReplySchema) });

  const send = handleSubmit(async ({ body }) => {
    if (attachments.uploading || attachments.failed) {
      setFailure(attachments.uploading ? support.form.waitUploads : support.form.removeFailedUploads);
      return;
    }
    setFailure(null);
    setSent(false);
    try {
      await onSend({ body, attachmentIds: attachments.fileIds.length > 0 ? attachments.fileIds : undefined });
      reset();
      attachments.clear();
      setSent(true);
    } catch (error) {
      setFailure(error instanceof Error ? error.message : text.failed);
    }
  });

  return (
    <form className="support-reply" noValidate onSubmit={(event) => void send(event)}>
      <MessageField label={text.label} error={formState.errors.body?.message} {...register('body')} />
      <AttachmentsField attachments={attachments} />
      {failure && <p role="alert" className="ui-inline-error">{failure}</p>}
      <div className="support-reply__actions">
        <Button type="submit" loading={formState.isSubmitting}>{text.send}</Button>
        <p className="ui-muted">{note}</p>
      </div>
      <p role="status" className="ui-visually-hidden">{sent ? text.sent : ''}</p>
    </form>
  );
}
