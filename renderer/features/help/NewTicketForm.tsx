import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import type { Path, Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link, useNavigate } from 'react-router-dom';
import { newTicketSchema, TICKET_CATEGORIES, TICKET_CATEGORY_LABELS, TICKET_MAX_ATTACHMENTS } from '#shared/api/support.ts';
import type { NewTicket } from '#shared/api/support.ts';
import { uploadAttachment, useCreateTicketMutation } from '../../api/support.ts';
import { support } from '../../i18n/es-support.ts';
import { AttachmentsField } from '../../ui/AttachmentsField.tsx';
import { asHttpError, errorMessage } from '../../ui/forms.ts';
import { Button, TextField } from '../../ui/index.ts';
import { MessageField } from '../../ui/MessageField.tsx';
import { useAttachments } from '../../ui/useAttachments.ts';
import { RunChoice } from './RunChoice.tsx';
import { helpLinks } from './supportLinks.ts';

const text = support.form;

/** The form's own fields: the files travel beside it, each uploaded as soon as it is picked. */
type Fields = Omit<NewTicket, 'attachmentIds' | 'category'> & { category: NewTicket['category'] | '' };
const FIELDS = ['subject', 'category', 'body', 'runId'] as const;
const isField = (path: string): path is (typeof FIELDS)[number] => (FIELDS as readonly string[]).includes(path);

/**
 * 'Nueva consulta': subject, topic, message, the run it is about (preselected from ?ejecucion=) and
 * up to five files. Checked with the contract's schema before sending; 'Enviar' opens the new ticket.
 */
export function NewTicketForm({ runId }: { runId?: string }) {
  const navigate = useNavigate();
  const heading = useRef<HTMLHeadingElement>(null);
  const categoryId = useId();
  const [createTicket] = useCreateTicketMutation();
  const attachments = useAttachments(uploadAttachment, TICKET_MAX_ATTACHMENTS);
  const [failure, setFailure] = useState<string | null>(null);
  const { register, control, handleSubmit, setError, setValue, formState } = useForm<Fields, unknown, NewTicket>({
    defaultValues: { subject: '', category: '', body: '', runId },
    // The topic starts unchosen (''), which the schema refuses with its own message: 'Elige de qué trata la consulta'.
    resolver: zodResolver(newTicketSchema) as unknown as Resolver<Fields, unknown, NewTicket>,
  });
  const { errors } = formState;

  useEffect(() => heading.current?.focus(), []);
  const dropUnknownRun = useCallback(() => setValue('runId', undefined), [setValue]);

  const send = handleSubmit(async (values) => {
    if (attachments.uploading || attachments.failed) {
      setFailure(attachments.uploading ? text.waitUploads : text.removeFailedUploads);
      return;
    }
    setFailure(null);
    try {
      const fileIds = attachments.fileIds;
      const ticket = await createTicket({ ...values, attachmentIds: fileIds.length > 0 ? fileIds : undefined }).unwrap();
      navigate(helpLinks.ticket(ticket.id));
    } catch (error) {
      // The server's field issues go beside their fields; anything else above the button.
      const issues = asHttpError(error)?.data?.issues ?? [];
      const placed = issues.filter((issue) => isField(issue.path));
      for (const issue of placed) setError(issue.path as Path<Fields>, { type: 'server', message: issue.message });
      if (placed.length === 0 || placed.length < issues.length) setFailure(errorMessage(error, text.sendFailed));
    }
  });

  return (
    <section className="ui-card ui-section" aria-labelledby="help-new-title">
      <Link to={helpLinks.list()}>{text.back}</Link>
      <h2 id="help-new-title" ref={heading} tabIndex={-1} className="ui-section__title support-heading">{text.title}</h2>
      <form className="support-form" noValidate onSubmit={(event) => void send(event)}>
        <TextField label={text.subject} maxLength={150} error={errors.subject?.message} {...register('subject')} />
        <div className={`app-field${errors.category ? ' app-field--invalid' : ''}`}>
          <label htmlFor={categoryId}>{text.category}</label>
          <select
            id={categoryId}
            aria-invalid={errors.category ? true : undefined}
            aria-describedby={`${categoryId}-error`}
            {...register('category')}
          >
            <option value="">{text.chooseCategory}</option>
            {TICKET_CATEGORIES.map((category) => (
              <option key={category} value={category}>{TICKET_CATEGORY_LABELS[category]}</option>
            ))}
          </select>
          <p className="app-field__error"><span id={`${categoryId}-error`}>{errors.category?.message}</span></p>
        </div>
        <MessageField label={text.body} hint={text.bodyHint} error={errors.body?.message} {...register('body')} />
        <Controller
          name="runId"
          control={control}
          render={({ field, fieldState }) => (
            <RunChoice
              ref={field.ref}
              name={field.name}
              value={field.value ?? ''}
              preselected={runId}
              onUnknown={dropUnknownRun}
              error={fieldState.error?.message}
              onBlur={field.onBlur}
              onChange={(event) => field.onChange(event.target.value === '' ? undefined : event.target.value)}
            />
          )}
        />
        <AttachmentsField attachments={attachments} />
        {failure && <p role="alert" className="ui-inline-error">{failure}</p>}
        <div className="support-reply__actions">
          <Button type="submit" loading={formState.isSubmitting}>{text.send}</Button>
          <Link to={helpLinks.list()}>{text.cancel}</Link>
        </div>
      </form>
    </section>
  );
}
