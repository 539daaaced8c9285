import { useId, useState } from 'react';
import type { Ref } from 'react';
import { EMAIL_PROVIDERS } from '#shared/api/mail.ts';
import type { MailAccount } from '#shared/api/mail.ts';
import { useDeleteMailAccountMutation, useMailAccountsQuery } from '../../api/mail.ts';
import { useToast } from '../../app/hooks.ts';
import { mail } from '../../i18n/es-mail.ts';
import { Button, EmptyState, IconAlert, IconCheck, IconMail, Spinner } from '../../ui/index.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { errorMessage } from '../../ui/forms.ts';
import { isUsable } from './draft.ts';
import type { WizardDraft } from './draft.ts';
import { useConnectAccount } from './useConnectAccount.ts';

const text = mail.account;

interface AccountStepProps {
  draft: WizardDraft;
  onSelect: (accountId: string | null) => void;
  headingRef: Ref<HTMLHeadingElement>;
}

/** Step 2 'Conecta la cuenta': the firm's linked mailboxes to choose from, linking a new one, re-linking and unlinking. */
export function AccountStep({ draft, onSelect, headingRef }: AccountStepProps) {
  const id = useId();
  const toast = useToast();
  const accounts = useMailAccountsQuery();
  const [deleteAccount, { isLoading: deleting }] = useDeleteMailAccountMutation();
  const [confirming, setConfirming] = useState<MailAccount | null>(null);
  const connection = useConnectAccount({ draft, onLinked: (account) => onSelect(account._id) });

  const remove = async (account: MailAccount) => {
    try {
      await deleteAccount(account._id).unwrap();
      if (draft.accountId === account._id) onSelect(null);
      toast.success(text.removed);
    } catch (error) {
      toast.error(errorMessage(error, text.removeFailed));
    } finally {
      setConfirming(null);
    }
  };

  let list;
  if (accounts.isLoading) list = <Spinner label={text.loading} />;
  else if (accounts.isError)
    list = (
      <div role="alert" className="email-alert">
        <IconAlert size={18} />
        <p>{text.loadFailed}</p>
        <Button variant="secondary" onClick={() => void accounts.refetch()}>{text.retry}</Button>
      </div>
    );
  else if (!accounts.data || accounts.data.length === 0)
    list = <EmptyState icon={<IconMail />} title={text.empty} text={text.emptyText} headingLevel={3} />;
  else
    list = (
      <fieldset className="email-accounts">
        <legend className="ui-visually-hidden">{text.listLabel}</legend>
        <ul className="email-accounts__list" aria-label={text.listLabel}>
          {accounts.data.map((account) => {
            const usable = isUsable(account);
            const selected = usable && draft.accountId === account._id;
            return (
              <li key={account._id} className={`email-account${selected ? ' email-account--selected' : ''}${usable ? '' : ' email-account--problem'}`}>
                <label className="email-account__choice">
                  <input
                    type="radio"
                    name={`${id}-account`}
                    value={account._id}
                    checked={selected}
                    disabled={!usable}
                    aria-label={text.select(account.email)}
                    onChange={() => onSelect(account._id)}
                  />
                  <span className="email-account__text">
                    <strong className="email-account__address">{account.email}</strong>
                    <span className="ui-muted">
                      {text.providers[account.provider]} · {account.mine ? text.yours : text.linkedBy(account.linkedBy.name)}
                    </span>
                    <span className={`email-account__status email-account__status--${account.status}`}>
                      {usable ? <IconCheck size={16} /> : <IconAlert size={16} />}
                      {text.status[account.status]}
                    </span>
                    {account.problem !== null && <span className="email-account__problem">{account.problem}</span>}
                  </span>
                </label>
                <div className="email-account__actions">
                  {!usable && (
                    <Button
                      variant="secondary"
                      aria-label={text.relinkLabel(account.email)}
                      loading={connection.busy === account.provider}
                      disabled={connection.busy !== null}
                      onClick={() => void connection.connect(account.provider, account.email)}
                    >
                      {text.relink}
                    </Button>
                  )}
                  <Button variant="ghost" aria-label={text.removeLabel(account.email)} onClick={() => setConfirming(account)}>
                    {text.remove}
                  </Button>
                </div>
              </li>
            );
          })}
        </ul>
      </fieldset>
    );

  return (
    <section className="email-step" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} ref={headingRef} tabIndex={-1} className="ui-section__title email-step__heading">{text.heading}</h2>
      <p className="ui-muted email-note">{text.intro}</p>
      {list}
      <section className="email-connect" aria-labelledby={`${id}-connect`}>
        <h3 id={`${id}-connect`} className="email-connect__title">{text.connectTitle}</h3>
        {connection.waiting ? (
          <div role="status" className="email-waiting">
            <Spinner size="small" decorative />
            <div>
              <p className="email-waiting__title">{text.waiting}</p>
              <p className="ui-muted email-note">{text.waitingText}</p>
            </div>
            <Button variant="secondary" onClick={connection.cancel}>{text.cancel}</Button>
          </div>
        ) : (
          <div className="email-connect__buttons">
            {EMAIL_PROVIDERS.map((provider) => (
              <Button
                key={provider}
                variant="secondary"
                icon={<IconMail size={18} />}
                loading={connection.busy === provider}
                disabled={connection.busy !== null}
                onClick={() => void connection.connect(provider)}
              >
                {text.connect[provider]}
              </Button>
            ))}
          </div>
        )}
        {connection.error !== null && (
          <p role="alert" className="email-alert">
            <IconAlert size={18} />
            {connection.error}
          </p>
        )}
      </section>
      <ConfirmDialog
        open={confirming !== null}
        title={text.confirmTitle}
        text={confirming ? text.confirmText(confirming.email) : ''}
        confirmLabel={text.remove}
        busy={deleting}
        onConfirm={() => confirming && void remove(confirming)}
        onCancel={() => setConfirming(null)}
      />
    </section>
  );
}
