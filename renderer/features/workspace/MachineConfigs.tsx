import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { Machine } from '#shared/api/machines.ts';
import { isValidCcc } from '#shared/validation/identifiers.ts';
import { useCreateMachineConfigMutation } from '../../api/machines.ts';
import { useToast } from '../../app/hooks.ts';
import { workspace } from '../../i18n/es-workspace.ts';
import { Button, EmptyState, IconMail, TextField } from '../../ui/index.ts';
import { errorMessage } from '../../ui/forms.ts';
import { ConfigList } from './ConfigList.tsx';
import { parseCccLines } from './workspaceModel.ts';

const text = workspace.configs;

/** A machine's configurations (spec §3 Machine config): the list, a new one, and delete with a confirm. */
export function MachineConfigs({ machine }: { machine: Machine }) {
  return (
    <div className="workspace-configs">
      <ConfigList
        configs={machine.configs}
        label={text.listLabel}
        machineId={machine._id}
        empty={<EmptyState title={workspace.detail.noConfigs} headingLevel={3} />}
      />
      <div>
        <p className="ui-muted workspace-note">{text.emailSetupHint}</p>
        <Link className="ui-button ui-button--secondary" to={`/email?${new URLSearchParams({ machine: machine._id }).toString()}`}>
          <IconMail size={18} />
          <span className="ui-button__label">{text.emailSetup}</span>
        </Link>
      </div>
      <NewConfigForm machineId={machine._id} />
    </div>
  );
}

/**
 * Name and CCC list, checked with the shared CCC rule before sending. The mail part (emailSettings)
 * is the email wizard's (/email), which links the account it needs.
 */
function NewConfigForm({ machineId }: { machineId: string }) {
  const toast = useToast();
  const titleId = useId();
  const cccId = useId();
  const [createConfig, { isLoading }] = useCreateMachineConfigMutation();
  const [name, setName] = useState('');
  const [cccText, setCccText] = useState('');
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const [cccError, setCccError] = useState<string | undefined>(undefined);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    const cccList = parseCccLines(cccText);
    const invalid = cccList.find((ccc) => !isValidCcc(ccc));
    setNameError(trimmed === '' ? text.nameRequired : undefined);
    setCccError(invalid === undefined ? undefined : text.invalidCcc(invalid));
    if (trimmed === '' || invalid !== undefined) return;
    try {
      await createConfig({ machineId, config: { name: trimmed, cccList } }).unwrap();
      toast.success(text.created);
      setName('');
      setCccText('');
    } catch (error) {
      toast.error(errorMessage(error, text.createFailed));
    }
  };

  return (
    <form className="workspace-configs__form" aria-labelledby={titleId} onSubmit={(event) => void submit(event)} noValidate>
      <h3 id={titleId} className="workspace-configs__form-title">{text.newTitle}</h3>
      <TextField
        label={text.name}
        value={name}
        required
        maxLength={100}
        error={nameError}
        reserve={[text.nameRequired]}
        onValueChange={(value) => {
          setName(value);
          setNameError(undefined);
        }}
      />
      <div className={`app-field${cccError ? ' app-field--invalid' : ''}`}>
        <label htmlFor={cccId}>{text.cccList}</label>
        <textarea
          id={cccId}
          className="ui-input workspace-configs__ccc"
          rows={3}
          value={cccText}
          spellCheck={false}
          aria-invalid={cccError ? true : undefined}
          aria-describedby={`${cccId}-hint ${cccId}-error`}
          onChange={(event) => {
            setCccText(event.target.value);
            setCccError(undefined);
          }}
        />
        <p id={`${cccId}-hint`} className="ui-muted workspace-note">{text.cccHint}</p>
        <p className="app-field__error">
          <span id={`${cccId}-error`}>{cccError}</span>
        </p>
      </div>
      <div className="workspace-actions">
        <Button type="submit" loading={isLoading}>{text.create}</Button>
      </div>
    </form>
  );
}
