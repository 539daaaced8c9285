import { useId, useState } from 'react';
import type { ClientCompany, CompanyGroup, FormDefinition } from '#shared/api/altas.ts';
import { normalizeFieldValue } from '#shared/forms/index.ts';
import { MANDATORY_MESSAGE } from '#shared/validation/validate.ts';
import { useToast } from '../../app/hooks.ts';
import { altas as text } from '../../i18n/es-altas.ts';
import { Button, TextField } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { useCreateGroupsMutation, useUpdateGroupsMutation } from './altasApi.ts';
import type { GroupInput } from './altasApi.ts';
import { fieldErrors, groupFieldMessages, readServerFailure, withValue } from './altasModel.ts';
import { FieldInput } from './FieldInput.tsx';
import { focusFirstInvalid } from './focus.ts';

/** The fields the advisor fills per group (fieldWriter 'userBefore'), in the form's order. */
export function groupFieldKeys(definition: FormDefinition): string[] {
  return definition.fieldsOrder.filter((key) => definition.fields[key]?.fieldWriter === 'userBefore' && definition.fields[key]?.fieldType !== 'file');
}

/** A group's values as the API takes them: strings, booleans, dates as ISO days. */
function groupValues(definition: FormDefinition, keys: readonly string[], values: Record<string, unknown>): GroupInput['fieldsValues'] {
  const saved: GroupInput['fieldsValues'] = {};
  for (const key of keys) {
    const field = definition.fields[key];
    const value = field ? normalizeFieldValue(field.fieldType, values[key]) : values[key];
    if (typeof value === 'string' || typeof value === 'boolean') saved[key] = value;
  }
  return saved;
}

export interface GroupModalProps {
  company: ClientCompany;
  /** The group to edit; null for 'Nuevo grupo'. */
  group: CompanyGroup | null;
  definition: FormDefinition;
  onClose: () => void;
}

/** 'Nuevo grupo' / edit: its name and the advisor's fields, dependent options included. */
export function GroupModal({ company, group, definition, onClose }: GroupModalProps) {
  const toast = useToast();
  const [createGroups, creating] = useCreateGroupsMutation();
  const [updateGroups, updating] = useUpdateGroupsMutation();
  const [name, setName] = useState(group?.text ?? '');
  const [nameError, setNameError] = useState<string | undefined>(undefined);
  const [values, setValues] = useState<Record<string, unknown>>(() => ({ ...(group?.fieldsValues ?? {}) }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const keys = groupFieldKeys(definition);

  const save = async () => {
    const found = fieldErrors(definition.fields, keys, values);
    const missingName = name.trim() === '' ? MANDATORY_MESSAGE : undefined;
    setErrors(found);
    setNameError(missingName);
    if (missingName || Object.keys(found).length > 0) {
      focusFirstInvalid();
      return;
    }
    const key = group?.key ?? crypto.randomUUID();
    const request = { companyId: company._id, groups: { [key]: { text: name.trim(), fieldsValues: groupValues(definition, keys, values) } } };
    try {
      if (group) await updateGroups(request).unwrap();
      else await createGroups(request).unwrap();
      toast.success(group ? text.group.updated : text.group.created);
      onClose();
    } catch (error) {
      const failure = readServerFailure(error);
      if (Object.keys(failure.fields).length > 0) setErrors(groupFieldMessages(failure.fields, key));
      toast.error(text.failed);
      focusFirstInvalid();
    }
  };

  return (
    <Modal
      open
      title={group ? text.group.editTitle : text.group.newTitle}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{text.group.cancel}</Button>
          <Button loading={creating.isLoading || updating.isLoading} onClick={() => void save()}>{text.group.save}</Button>
        </>
      }
    >
      <div className="altas-form">
        <TextField label={`${text.group.name} *`} value={name} error={nameError} aria-required onValueChange={setName} />
        <div className="altas-form__grid">
          {keys.map((key) => {
            const field = definition.fields[key];
            if (!field) return null;
            return (
              <FieldInput
                key={key}
                fieldKey={key}
                field={field}
                values={values}
                error={errors[key] ?? null}
                company={company}
                parentTitle={field.dependentKey ? definition.fields[field.dependentKey]?.title : undefined}
                onChange={(changed, value) => {
                  setValues((current) => withValue(definition.fields, current, changed, value));
                  setErrors(({ [changed]: _dropped, ...rest }) => rest);
                }}
              />
            );
          })}
        </div>
      </div>
    </Modal>
  );
}

export interface CopyGroupModalProps {
  group: CompanyGroup;
  from: ClientCompany;
  companies: readonly ClientCompany[];
  onClose: () => void;
}

/** Copies a group to another company: the same name and values under a new key there. */
export function CopyGroupModal({ group, from, companies, onClose }: CopyGroupModalProps) {
  const toast = useToast();
  const targetId = useId();
  const targets = companies.filter((company) => company._id !== from._id);
  const [target, setTarget] = useState(targets[0]?._id ?? '');
  const [createGroups, creating] = useCreateGroupsMutation();

  const copy = async () => {
    if (target === '') return;
    try {
      await createGroups({ companyId: target, groups: { [crypto.randomUUID()]: { text: group.text, fieldsValues: { ...group.fieldsValues } } } }).unwrap();
      toast.success(text.group.created);
      onClose();
    } catch {
      toast.error(text.failed);
    }
  };

  return (
    <Modal
      open
      size="small"
      title={text.group.copyTitle}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{text.group.cancel}</Button>
          <Button loading={creating.isLoading} disabled={target === ''} onClick={() => void copy()}>{text.group.copy}</Button>
        </>
      }
    >
      {targets.length === 0 ? (
        <p className="ui-muted">{text.group.copyNoTarget}</p>
      ) : (
        <div className="altas-field">
          <label htmlFor={targetId} className="altas-field__label">{text.group.copyTarget}</label>
          <select id={targetId} className="ui-input" value={target} onChange={(event) => setTarget(event.target.value)}>
            {targets.map((company) => <option key={company._id} value={company._id}>{company.fieldsValues.nombreEmpresa}</option>)}
          </select>
        </div>
      )}
    </Modal>
  );
}
