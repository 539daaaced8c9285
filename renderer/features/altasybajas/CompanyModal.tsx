import { useId, useState } from 'react';
import { EMAIL_IN_USE_MESSAGE } from '#shared/api/altas.ts';
import type { ClientCompany } from '#shared/api/altas.ts';
import { CCC_INVALID_MESSAGE, CCC_KEY_MISSING_MESSAGE, CCC_LABEL_MISSING_MESSAGE, cccRowProblems } from '#shared/altas/ccc-rows.ts';
import type { CccRowProblem } from '#shared/altas/ccc-rows.ts';
import { addKeyValueRow, keyValueRowsToSave, removeKeyValueRow, updateKeyValueRow } from '#shared/forms/index.ts';
import type { KeyValueRow } from '#shared/forms/index.ts';
import { validate } from '#shared/validation/index.ts';
import { MANDATORY_MESSAGE } from '#shared/validation/validate.ts';
import { useToast } from '../../app/hooks.ts';
import { altas as text } from '../../i18n/es-altas.ts';
import { Button, IconClose, IconPlus, TextField } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { useCreateClientMutation, useUpdateClientMutation } from './altasApi.ts';
import { readServerFailure } from './altasModel.ts';
import { focusFirstInvalid } from './focus.ts';

/** The server's message for a row ('cccList.<row>'), on the input it names (the name, the CCC), or on both when it names neither. */
function serverProblem(message: string | undefined): CccRowProblem | null {
  if (message === undefined) return null;
  if (message === CCC_LABEL_MISSING_MESSAGE) return { message, input: 'label' };
  if (message === CCC_KEY_MISSING_MESSAGE || message === CCC_INVALID_MESSAGE) return { message, input: 'key' };
  return { message, input: 'both' };
}

/** 'Nueva Empresa' / edit: name, email and the CCC list as key/value rows (spec §5). */
export function CompanyModal({ company, onClose }: { company: ClientCompany | null; onClose: () => void }) {
  const toast = useToast();
  const idBase = useId();
  const [createClient, creating] = useCreateClientMutation();
  const [updateClient, updating] = useUpdateClientMutation();
  const [name, setName] = useState(company?.fieldsValues.nombreEmpresa ?? '');
  const [email, setEmail] = useState(company?.fieldsValues.email ?? '');
  const [rows, setRows] = useState<KeyValueRow[]>(() => (company && company.fieldsValues.CCC.length > 0 ? company.fieldsValues.CCC.map((row) => ({ ...row })) : [{ label: '', key: '' }]));
  const [errors, setErrors] = useState<{ name?: string; email?: string }>({});
  const [rowsChecked, setRowsChecked] = useState(false);
  /** The server's per-row messages of a 400 ('cccList.0'), until that row changes. */
  const [serverRowErrors, setServerRowErrors] = useState<Record<number, string>>({});
  // Each row says what it lacks (issue 44): its name, its CCC, or a valid CCC.
  const rowErrors = rowsChecked ? cccRowProblems(rows).map((problem, index) => problem ?? serverProblem(serverRowErrors[index])) : rows.map(() => null);
  const changeRow = (index: number, change: Partial<KeyValueRow>) => {
    setRows(updateKeyValueRow(rows, index, change));
    setServerRowErrors(({ [index]: _dropped, ...rest }) => rest);
  };

  const save = async () => {
    const emailCheck = validate(email.trim(), 'email');
    const found = {
      name: name.trim() === '' ? MANDATORY_MESSAGE : undefined,
      email: email.trim() === '' ? MANDATORY_MESSAGE : emailCheck.valid ? undefined : emailCheck.message,
    };
    setErrors(found);
    setRowsChecked(true);
    setServerRowErrors({});
    if (found.name || found.email || cccRowProblems(rows).some((problem) => problem !== null)) {
      focusFirstInvalid();
      return;
    }
    const body = { name: name.trim(), email: email.trim().toLowerCase(), cccList: keyValueRowsToSave(rows) };
    try {
      if (company) await updateClient({ id: company._id, ...body }).unwrap();
      else await createClient(body).unwrap();
      toast.success(company ? text.company.updated : text.company.created);
      onClose();
    } catch (error) {
      const failure = readServerFailure(error);
      if (failure.status === 409) {
        setErrors({ email: EMAIL_IN_USE_MESSAGE });
        toast.error(EMAIL_IN_USE_MESSAGE);
        focusFirstInvalid();
      } else {
        const byRow: Record<number, string> = {};
        for (const [path, message] of Object.entries(failure.fields)) {
          const row = /^cccList\.(\d+)/.exec(path);
          if (row) byRow[Number(row[1])] = message;
        }
        setServerRowErrors(byRow);
        if (typeof failure.fields.email === 'string') setErrors({ email: failure.fields.email });
        toast.error(text.failed);
        focusFirstInvalid();
      }
    }
  };

  return (
    <Modal
      open
      title={company ? text.company.editTitle : text.company.newTitle}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{text.company.cancel}</Button>
          <Button loading={creating.isLoading || updating.isLoading} onClick={() => void save()}>{text.company.save}</Button>
        </>
      }
    >
      <div className="altas-form">
        <TextField label={`${text.company.name} *`} value={name} error={errors.name} aria-required onValueChange={setName} />
        <TextField label={`${text.company.email} *`} type="email" value={email} error={errors.email} aria-required onValueChange={setEmail} />
        <fieldset className="altas-form__page">
          <legend>{text.company.cccTitle}</legend>
          <ul className="altas-ccc">
            {rows.map((row, index) => {
              const problem = rowErrors[index] ?? null;
              const errorId = `${idBase}-ccc-${index}-error`;
              const invalid = (input: 'label' | 'key') => (problem !== null && (problem.input === input || problem.input === 'both') ? true : undefined);
              return (
                <li key={index} className="altas-ccc__row">
                  <input
                    className="ui-input"
                    aria-label={`${text.company.cccLabel} ${index + 1}`}
                    placeholder={text.company.cccLabel}
                    value={row.label}
                    aria-invalid={invalid('label')}
                    aria-describedby={problem ? errorId : undefined}
                    onChange={(event) => changeRow(index, { label: event.target.value })}
                  />
                  <input
                    className="ui-input"
                    aria-label={`${text.company.cccKey} ${index + 1}`}
                    placeholder={text.company.cccKey}
                    inputMode="numeric"
                    value={row.key}
                    aria-invalid={invalid('key')}
                    aria-describedby={problem ? errorId : undefined}
                    onChange={(event) => changeRow(index, { key: event.target.value.trim() })}
                  />
                  <button
                    type="button"
                    className="ui-icon-button"
                    aria-label={text.company.removeCcc(index + 1)}
                    onClick={() => {
                      setRows(removeKeyValueRow(rows, index));
                      setServerRowErrors({});
                    }}
                  >
                    <IconClose size={16} />
                  </button>
                  {problem && <p id={errorId} className="altas-field__error altas-ccc__error">{problem.message}</p>}
                </li>
              );
            })}
          </ul>
          <Button variant="ghost" icon={<IconPlus size={16} />} onClick={() => setRows(addKeyValueRow(rows))}>{text.company.addCcc}</Button>
        </fieldset>
      </div>
    </Modal>
  );
}
