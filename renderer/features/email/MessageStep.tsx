import { useId, useRef } from 'react';
import type { Ref } from 'react';
import { MAIL_PLACEHOLDERS, SAMPLE_MAIL_VALUES, renderMailSubject, renderMailTemplate } from '#shared/mail/template.ts';
import { mail } from '../../i18n/es-mail.ts';
import { Button, TextField } from '../../ui/index.ts';
import { MAX_LENGTHS, insertPlaceholder } from './draft.ts';
import type { MessageErrors, MessageField, MessageFields } from './draft.ts';

const text = mail.message;

interface MessageStepProps {
  fields: MessageFields;
  errors: MessageErrors;
  onChange: (field: MessageField, value: string) => void;
  headingRef: Ref<HTMLHeadingElement>;
  /** The preview's clock; a prop so tests see a fixed date. */
  now?: Date;
}

/** Step 1 'Prepara el mensaje': the config's name, the message with its placeholders, and a preview with sample values. */
export function MessageStep({ fields, errors, onChange, headingRef, now = new Date() }: MessageStepProps) {
  const bodyId = useId();
  const subjectRef = useRef<HTMLInputElement>(null);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  // Where a placeholder goes: the last of subject/body that had the focus (the body at first).
  const target = useRef<'subject' | 'body'>('body');

  const insert = (key: string) => {
    const element = target.current === 'subject' ? subjectRef.current : bodyRef.current;
    const value = fields[target.current];
    const start = element?.selectionStart ?? value.length;
    const end = element?.selectionEnd ?? value.length;
    const next = insertPlaceholder(value, start, end, key);
    onChange(target.current, next.value);
    // After React has written the new value: the caret right after the placeholder, ready to type on.
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(next.caret, next.caret);
    });
  };

  const previewSubject = renderMailSubject(fields.subject, SAMPLE_MAIL_VALUES, now);
  const previewBody = renderMailTemplate(fields.body, SAMPLE_MAIL_VALUES, now);

  return (
    <section className="email-step" aria-labelledby={`${bodyId}-heading`}>
      <h2 id={`${bodyId}-heading`} ref={headingRef} tabIndex={-1} className="ui-section__title email-step__heading">{text.heading}</h2>
      <div className="email-message">
        <div className="email-message__form">
          <TextField
            label={text.name}
            value={fields.name}
            required
            maxLength={MAX_LENGTHS.name}
            error={errors.name}
            reserve={[text.nameRequired]}
            onValueChange={(value) => onChange('name', value)}
          />
          <div className={`app-field${errors.ccc ? ' app-field--invalid' : ''}`}>
            <label htmlFor={`${bodyId}-ccc`}>{text.ccc}</label>
            <textarea
              id={`${bodyId}-ccc`}
              className="ui-input email-message__ccc"
              rows={3}
              value={fields.ccc}
              spellCheck={false}
              maxLength={MAX_LENGTHS.ccc}
              aria-invalid={errors.ccc ? true : undefined}
              aria-describedby={`${bodyId}-ccc-hint ${bodyId}-ccc-error`}
              onChange={(event) => onChange('ccc', event.target.value)}
            />
            <p id={`${bodyId}-ccc-hint`} className="ui-muted email-note">{text.cccHint}</p>
            <p className="app-field__error">
              <span id={`${bodyId}-ccc-error`}>{errors.ccc}</span>
            </p>
          </div>
          <TextField
            ref={subjectRef}
            label={text.subject}
            value={fields.subject}
            required
            maxLength={MAX_LENGTHS.subject}
            error={errors.subject}
            onFocus={() => (target.current = 'subject')}
            onValueChange={(value) => onChange('subject', value)}
          />
          <div className={`app-field${errors.body ? ' app-field--invalid' : ''}`}>
            <label htmlFor={bodyId}>{text.body}</label>
            <textarea
              id={bodyId}
              ref={bodyRef}
              className="ui-input email-message__body"
              rows={10}
              value={fields.body}
              maxLength={MAX_LENGTHS.body}
              aria-invalid={errors.body ? true : undefined}
              aria-describedby={errors.body ? `${bodyId}-error` : undefined}
              onFocus={() => (target.current = 'body')}
              onChange={(event) => onChange('body', event.target.value)}
            />
            <p className="app-field__error">
              <span id={`${bodyId}-error`}>{errors.body}</span>
            </p>
          </div>
          <fieldset className="email-placeholders">
            <legend>{text.placeholders}</legend>
            <p className="ui-muted email-note">{text.placeholdersHint}</p>
            <div className="email-placeholders__list">
              {MAIL_PLACEHOLDERS.map((placeholder) => (
                <Button
                  key={placeholder.key}
                  variant="secondary"
                  className="email-placeholders__button"
                  aria-label={text.insert(placeholder.label)}
                  title={placeholder.label}
                  // Keeps the caret where it was in the field while the button is pressed.
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => insert(placeholder.key)}
                >
                  {`[[${placeholder.key}]]`}
                </Button>
              ))}
            </div>
          </fieldset>
          <TextField
            label={text.replyTo}
            type="email"
            value={fields.replyTo}
            maxLength={MAX_LENGTHS.replyTo}
            error={errors.replyTo}
            reserve={[text.email]}
            placeholder="clientes@tuasesoria.es"
            onValueChange={(value) => onChange('replyTo', value)}
          />
          <TextField
            label={text.senderName}
            value={fields.senderName}
            maxLength={MAX_LENGTHS.senderName}
            error={errors.senderName}
            onValueChange={(value) => onChange('senderName', value)}
          />
        </div>
        <aside className="email-preview" aria-labelledby={`${bodyId}-preview`}>
          <h3 id={`${bodyId}-preview`} className="email-preview__title">{text.preview}</h3>
          <p className="ui-muted email-note">{text.previewNote}</p>
          <div className="email-preview__message" data-testid="email-preview">
            <p className="email-preview__subject">
              <span className="ui-muted">{text.previewSubject}</span> {previewSubject}
            </p>
            <pre className="email-preview__body">{previewBody}</pre>
          </div>
        </aside>
      </div>
    </section>
  );
}
