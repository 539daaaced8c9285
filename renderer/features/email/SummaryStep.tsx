import { useId, useState } from 'react';
import type { Ref } from 'react';
import { useNavigate } from 'react-router-dom';
import type { MailAccount } from '#shared/api/mail.ts';
import type { Machine } from '#shared/api/machines.ts';
import { SAMPLE_MAIL_VALUES, renderMailSubject, renderMailTemplate } from '#shared/mail/template.ts';
import { useCreateFirmConfigMutation, useCreateMachineConfigMutation, useUpdateMachineConfigMutation } from '../../api/machines.ts';
import { useToast } from '../../app/hooks.ts';
import { mail } from '../../i18n/es-mail.ts';
import { Button, IconAlert } from '../../ui/index.ts';
import { configRequest, parseCccText } from './draft.ts';
import type { MessageFields } from './draft.ts';
import { errorMessage } from '../../ui/forms.ts';

const text = mail.summary;

interface SummaryStepProps {
  fields: MessageFields;
  /** The device it is saved on; null with `firm` for the firm's own, or for a device that is not there. */
  machine: Machine | null;
  firm: boolean;
  /** The saved config being edited; null saves a new one. */
  configId: string | null;
  account: MailAccount | null;
  headingRef: Ref<HTMLHeadingElement>;
  /** After a save: the wizard's draft is done with. */
  onSaved: () => void;
  /** The preview's clock; a prop so tests see a fixed date. */
  now?: Date;
}

/**
 * Step 3 'Revisa y guarda': everything at once, the message as it will read (rendered with the sample
 * run, as step 1's preview); saving needs a linked account, and the device when it goes on one (spec §5).
 */
export function SummaryStep({ fields, machine, firm, configId, account, headingRef, onSaved, now = new Date() }: SummaryStepProps) {
  const id = useId();
  const toast = useToast();
  const navigate = useNavigate();
  const [createConfig, created] = useCreateMachineConfigMutation();
  const [createFirmConfig, createdFirm] = useCreateFirmConfigMutation();
  const [updateConfig, updated] = useUpdateMachineConfigMutation();
  const saving = created.isLoading || createdFirm.isLoading || updated.isLoading;
  const [refusal, setRefusal] = useState<string | null>(null);

  // Why Guardar is off, said next to it (not only a greyed button).
  const blocker = account === null ? text.needsAccount : !firm && machine === null ? text.needsMachine : null;
  const optional = (value: string) => (value.trim() === '' ? text.none : value.trim());

  const save = async () => {
    if (account === null || (!firm && machine === null)) return;
    setRefusal(null);
    const config = configRequest(fields, account);
    try {
      if (configId !== null) await updateConfig({ configId, config }).unwrap();
      else if (machine !== null) await createConfig({ machineId: machine._id, config }).unwrap();
      else await createFirmConfig(config).unwrap();
      onSaved();
      toast.success(configId !== null ? text.updated : text.saved);
      navigate(machine !== null ? `/workspace?${new URLSearchParams({ dispositivo: machine._id, detalle: 'configuraciones' }).toString()}` : '/workspace');
    } catch (error) {
      setRefusal(errorMessage(error, text.saveFailed));
    }
  };

  const cccList = parseCccText(fields.ccc);
  const rows: [string, string][] = [
    [text.machine, machine ? machine.savedAs || machine.name : firm ? mail.machine.firmShort : text.none],
    [text.name, fields.name.trim()],
    [text.ccc, cccList.length === 0 ? text.allCcc : cccList.join(', ')],
    [text.account, account ? `${account.email} (${mail.account.providers[account.provider]})` : text.noAccount],
    [text.replyTo, optional(fields.replyTo)],
    [text.senderName, optional(fields.senderName)],
  ];

  return (
    <section className="email-step" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} ref={headingRef} tabIndex={-1} className="ui-section__title email-step__heading">{text.heading}</h2>
      <dl className="email-summary">
        {rows.map(([label, value]) => (
          <div key={label} className="email-summary__item">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
        <div className="email-summary__item email-summary__item--wide">
          <dt>{text.preview}</dt>
          <dd className="email-preview__message" data-testid="email-summary-preview">
            <p className="email-preview__subject">
              <span className="ui-muted">{mail.message.previewSubject}</span> {renderMailSubject(fields.subject, SAMPLE_MAIL_VALUES, now)}
            </p>
            <pre className="email-summary__body">{renderMailTemplate(fields.body, SAMPLE_MAIL_VALUES, now)}</pre>
          </dd>
        </div>
      </dl>
      {refusal !== null && (
        <p role="alert" className="email-alert">
          <IconAlert size={18} />
          {refusal}
        </p>
      )}
      <div className="email-save">
        {blocker !== null && (
          <p id={`${id}-blocker`} className="email-save__reason">
            <IconAlert size={16} />
            {blocker}
          </p>
        )}
        <Button
          loading={saving}
          disabled={blocker !== null}
          aria-describedby={blocker !== null ? `${id}-blocker` : undefined}
          onClick={() => void save()}
        >
          {text.save}
        </Button>
      </div>
    </section>
  );
}
