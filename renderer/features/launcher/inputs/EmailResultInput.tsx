import { useEffect, useId, useMemo } from 'react';
import type { ClipboardEvent, KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { MAIL_CONFIG_REQUIRED_MESSAGE, MAIL_MAX_RECIPIENTS, MAIL_RECIPIENTS_REQUIRED_MESSAGE } from '#shared/api/mail.ts';
import type { FlowInputDefinition } from '#shared/flows/definition.ts';
import { isValidEmail } from '#shared/validation/index.ts';
import { useFirmConfigsQuery, useMachinesQuery } from '../../../api/machines.ts';
import { useMailAccountsQuery } from '../../../api/mail.ts';
import { launcher } from '../../../i18n/es-launcher.ts';
import { Button, IconClose } from '../../../ui/index.ts';
import type { FieldRule } from '../../../ui/forms.ts';
import {
  ADDRESS_SEPARATOR, EMPTY_EMAIL_RESULT, allRecipients, emailConfigOptions, emailResultProblems, emailResultText, mergeRecipients, parseEmailResultText, splitAddresses,
} from '../emailResult.ts';
import type { EmailConfigOption, EmailResultState } from '../emailResult.ts';
import type { LauncherForm } from '../useLauncherForm.ts';
import { FieldMessage } from './FieldMessage.tsx';
import { ChoiceField, type ChoiceOption } from './ChoiceField.tsx';

const text = launcher.inputs.emailResult;
// What each part's error line keeps room for (FieldMessage), so a message appearing moves nothing.
const configRule: FieldRule = { required: true, requiredMessage: MAIL_CONFIG_REQUIRED_MESSAGE };
const recipientsRule: FieldRule = { required: true, requiredMessage: MAIL_RECIPIENTS_REQUIRED_MESSAGE, rule: 'email' };

/**
 * 'Enviar resultado por email': off by default; on, the email configuration the result goes with (the
 * message and the linked mailbox it is sent from) and its recipients as removable chips. Its problems
 * show under the part they concern once the form has checked it (blur, Next, 'Lanzar tarea').
 */
export function EmailResultInput({ input, launcherForm }: { input: FlowInputDefinition; launcherForm: LauncherForm }) {
  const { form, rules, setText, touch } = launcherForm;
  const id = useId();
  const key = input.key;
  const rule = rules[key] ?? {};
  const state = parseEmailResultText(form.watch(key));
  const on = state !== null;
  const error = form.errors[key];
  const update = (changes: Partial<EmailResultState>) => setText(key, emailResultText({ ...(state ?? EMPTY_EMAIL_RESULT), ...changes }));

  return (
    <fieldset className={`launcher-input launcher-email${error ? ' launcher-input--invalid' : ''}`}>
      <legend className="launcher-checkbox__label">
        <label htmlFor={id} className="launcher-checkbox__label">
          <input
            id={id}
            type="checkbox"
            checked={on}
            onChange={(event) => setText(key, event.target.checked ? emailResultText(EMPTY_EMAIL_RESULT) : '')}
          />
          <span>{rule.required ? `${input.label} *` : input.label}</span>
        </label>
      </legend>
      {input.help && <p className="ui-muted launcher-input__help">{input.help}</p>}
      {state === null
        ? <FieldMessage id={`${id}-error`} error={error} rule={rule} />
        : <EmailResultDetails state={state} shownError={error} update={update} touch={() => touch(key)} />}
    </fieldset>
  );
}

interface DetailsProps {
  state: EmailResultState;
  /** The form's error for the input: while there is one, each part shows its own problem. */
  shownError: string | undefined;
  update: (changes: Partial<EmailResultState>) => void;
  touch: () => void;
}

/** Only the recipients' blur checks the input: the parts are filled in order, and an error on leaving the first would be early. */
function EmailResultDetails({ state, shownError, update, touch }: DetailsProps) {
  const machines = useMachinesQuery();
  // Unknown accounts (still loading, or failed) disable nothing: the server checks again on launch.
  const accounts = useMailAccountsQuery();
  // The firm's own configs (on no device) serve any robot, the server's included (issue 43).
  const firmConfigs = useFirmConfigsQuery();
  const options = useMemo(() => emailConfigOptions(machines.data ?? [], accounts.data, firmConfigs.data ?? []), [machines.data, accounts.data, firmConfigs.data]);
  const problems = shownError === undefined ? {} : emailResultProblems(state);
  const usable = options.some((option) => option.value === state.configId && option.reason === undefined);

  // A chosen config that went away or can no longer send (a default, an account that lost its link) is unchosen.
  const loaded = machines.data !== undefined && !firmConfigs.isLoading && !accounts.isFetching;
  useEffect(() => {
    if (loaded && state.configId !== '' && !usable) update({ configId: '' });
  }, [loaded, usable, state.configId, update]);

  let configPart;
  if (machines.isLoading || firmConfigs.isLoading) configPart = <p className="ui-muted" role="status">{text.loading}</p>;
  else if (machines.isError) {
    configPart = (
      <p className="launcher-email__note">
        {text.failed} <Button variant="secondary" onClick={() => void machines.refetch()}>{text.retry}</Button>
      </p>
    );
  } else if (options.length === 0) {
    configPart = (
      <p className="launcher-email__note">
        {text.noConfigs} <Link to="/email">{text.configure}</Link>
      </p>
    );
  } else {
    configPart = (
      <ChoiceField
        label={text.config}
        options={configChoices(options)}
        value={usable ? state.configId : ''}
        onChange={(configId) => update({ configId })}
        emptyLabel={text.chooseConfig}
        error={problems.config}
        rule={configRule}
      />
    );
  }

  return (
    <div className="launcher-email__details">
      {configPart}
      <RecipientsField state={state} error={problems.recipients} update={update} touch={touch} />
    </div>
  );
}

/** The email configurations, unusable ones shown disabled with their reason. */
function configChoices(options: readonly EmailConfigOption[]): ChoiceOption[] {
  return options.map((option) => ({
    value: option.value,
    label: option.reason === undefined ? option.label : text.unusable(option.label, option.reason),
    disabled: option.reason !== undefined,
  }));
}

interface RecipientsProps {
  state: EmailResultState;
  error: string | undefined;
  update: (changes: Partial<EmailResultState>) => void;
  touch: () => void;
}

/** Typed addresses become chips at a comma, semicolon, line break, Enter or when the field is left. */
function RecipientsField({ state, error, update, touch }: RecipientsProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const helpId = `${id}-help`;
  const count = allRecipients(state).length;

  const commit = (typed: string, keepLast: boolean) => {
    const parts = typed.split(ADDRESS_SEPARATOR);
    const rest = keepLast ? (parts.pop() ?? '') : '';
    update({ recipients: mergeRecipients(state.recipients, splitAddresses(parts.join(','))), draft: rest.trimStart() });
  };
  const onChange = (typed: string) => {
    if (ADDRESS_SEPARATOR.test(typed)) commit(typed, true);
    else update({ draft: typed });
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      // Enter adds the address; it must not submit the launcher's form.
      event.preventDefault();
      commit(state.draft, false);
    } else if (event.key === 'Backspace' && state.draft === '' && state.recipients.length > 0) {
      update({ recipients: state.recipients.slice(0, -1) });
    }
  };
  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    const pastedText = event.clipboardData.getData('text');
    // A single-line input would drop a pasted list's line breaks: split it here instead.
    if (!ADDRESS_SEPARATOR.test(pastedText)) return;
    event.preventDefault();
    commit(`${state.draft}${pastedText}`, false);
  };

  return (
    <div className={`app-field launcher-email__recipients${error ? ' app-field--invalid' : ''}`}>
      <label htmlFor={id}>{`${text.recipients} *`}</label>
      {state.recipients.length > 0 && (
        <ul className="launcher-email__chips" aria-label={text.recipientsList}>
          {state.recipients.map((address) => {
            const valid = isValidEmail(address);
            return (
              <li key={address} className={valid ? 'launcher-email__chip' : 'launcher-email__chip launcher-email__chip--invalid'}>
                <span>{address}</span>
                {!valid && <span className="launcher-email__chip-note">({text.invalidAddress})</span>}
                <button type="button" className="ui-icon-button launcher-email__chip-remove" aria-label={text.remove(address)} onClick={() => update({ recipients: state.recipients.filter((other) => other !== address) })}>
                  <IconClose size={14} />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <input
        id={id}
        type="text"
        inputMode="email"
        autoComplete="off"
        className="ui-input"
        value={state.draft}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onBlur={() => {
          if (state.draft.trim() !== '') commit(state.draft, false);
          touch();
        }}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${helpId} ${errorId}` : helpId}
      />
      <p id={helpId} className="ui-muted launcher-input__help">
        {text.recipientsHelp(MAIL_MAX_RECIPIENTS)} {count > 0 && text.count(count, MAIL_MAX_RECIPIENTS)}
      </p>
      <FieldMessage id={errorId} error={error} rule={recipientsRule} />
    </div>
  );
}
