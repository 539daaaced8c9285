import { useId, useState } from 'react';
import type { Ref } from 'react';
import { useNavigate } from 'react-router-dom';
import type { MailAccount } from '#shared/api/mail.ts';
import type { Machine } from '#shared/api/machines.ts';
import { useCreateMachineConfigMutation } from '../../api/machines.ts';
import { useToast } from '../../app/hooks.ts';
import { mail } from '../../i18n/es-mail.ts';
import { Button, IconAlert } from '../../ui/index.ts';
import { configRequest } from './draft.ts';
import type { MessageFields } from './draft.ts';
import { errorMessage } from '../../ui/forms.ts';

const text = mail.summary;

interface SummaryStepProps {
  fields: MessageFields;
  machine: Machine | null;
  account: MailAccount | null;
  headingRef: Ref<HTMLHeadingElement>;
  /** After a save: the wizard's draft is done with. */
  onSaved: () => void;
}

/** Step 3 'Revisa y guarda': everything at once; saving needs a machine and a linked account (spec §5). */
export function SummaryStep({ fields, machine, account, headingRef, onSaved }: SummaryStepProps) {
  const id = useId();
  const toast = useToast();
  const navigate = useNavigate();
  const [createConfig, { isLoading }] = useCreateMachineConfigMutation();
  const [refusal, setRefusal] = useState<string | null>(null);

  // Why Guardar is off, said next to it (not only a greyed button).
  const blocker = account === null ? text.needsAccount : machine === null ? text.needsMachine : null;
  const optional = (value: string) => (value.trim() === '' ? text.none : value.trim());

  const save = async () => {
    if (account === null || machine === null) return;
    setRefusal(null);
    try {
      await createConfig({ machineId: machine._id, config: configRequest(fields, account) }).unwrap();
      onSaved();
      toast.success(text.saved);
      navigate(`/workspace?${new URLSearchParams({ dispositivo: machine._id, detalle: 'configuraciones' }).toString()}`);
    } catch (error) {
      setRefusal(errorMessage(error, text.saveFailed));
    }
  };

  const rows: [string, string][] = [
    [text.machine, machine ? machine.savedAs || machine.name : text.none],
    [text.name, fields.name.trim()],
    [text.account, account ? `${account.email} (${mail.account.providers[account.provider]})` : text.noAccount],
    [text.subject, fields.subject],
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
          <dt>{text.body}</dt>
          <dd>
            <pre className="email-summary__body">{fields.body}</pre>
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
          loading={isLoading}
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
