import { useState } from 'react';
import { EMAIL_IN_USE_MESSAGE } from '#shared/api/altas.ts';
import type { ClientCompany } from '#shared/api/altas.ts';
import {
  KEY_VALUE_ROW_MESSAGE, addKeyValueRow, keyValueRowErrors, keyValueRowsToSave, removeKeyValueRow, updateKeyValueRow,
} from '#shared/forms/index.ts';
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

/** Spec §5: each row needs a label and a key ('Comprueba la información'); a filled key must be a valid CCC. */
function cccRowErrors(rows: readonly KeyValueRow[]): (string | null)[] {
  return keyValueRowErrors(rows).map((error, index) => {
    const key = rows[index]?.key.trim() ?? '';
    if (error !== null || key === '') return error;
    const check = validate(key, 'ccc');
    return check.valid ? null : (check.message ?? KEY_VALUE_ROW_MESSAGE);
  });
}

/** 'Nueva Empresa' / edit: name, email and the CCC list as key/value rows (spec §5). */
export function CompanyModal({ company, onClose }: { company: ClientCompany | null; onClose: () => void }) {
  const toast = useToast();
  const [createClient, creating] = useCreateClientMutation();
  const [updateClient, updating] = useUpdateClientMutation();
  const [name, setName] = useState(company?.fieldsValues.nombreEmpresa ?? '');
  const [email, setEmail] = useState(company?.fieldsValues.email ?? '');
  const [rows, setRows] = useState<KeyValueRow[]>(() => (company && company.fieldsValues.CCC.length > 0 ? company.fieldsValues.CCC.map((row) => ({ ...row })) : [{ label: '', key: '' }]));
  const [errors, setErrors] = useState<{ name?: string; email?: string }>({});
  const [rowsChecked, setRowsChecked] = useState(false);
  /** The server's per-row messages of a 400 ('cccList.0'), until that row changes. */
  const [serverRowErrors, setServerRowErrors] = useState<Record<number, string>>({});
  const rowErrors = rowsChecked ? cccRowErrors(rows).map((error, index) => error ?? serverRowErrors[index] ?? null) : rows.map(() => null);
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
    if (found.name || found.email || cccRowErrors(rows).some((error) => error !== null)) {
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
            {rows.map((row, index) => (
              <li key={index} className="altas-ccc__row">
                <input
                  className="ui-input"
                  aria-label={`${text.company.cccLabel} ${index + 1}`}
                  placeholder={text.company.cccLabel}
                  value={row.label}
                  aria-invalid={rowErrors[index] ? true : undefined}
                  onChange={(event) => changeRow(index, { label: event.target.value })}
                />
                <input
                  className="ui-input"
                  aria-label={`${text.company.cccKey} ${index + 1}`}
                  placeholder={text.company.cccKey}
                  inputMode="numeric"
                  value={row.key}
                  aria-invalid={rowErrors[index] ? true : undefined}
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
                {rowErrors[index] && <p className="altas-field__error altas-ccc__error">{rowErrors[index]}</p>}
              </li>
            ))}
          </ul>
          <Button variant="ghost" icon={<IconPlus size={16} />} onClick={() => setRows(addKeyValueRow(rows))}>{text.company.addCcc}</Button>
        </fieldset>
      </div>
    </Modal>
  );
}
