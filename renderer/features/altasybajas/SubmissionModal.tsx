import { useId, useState } from 'react';
import type { ClientCompany, FieldsValues, FormDefinition, Submission } from '#shared/api/altas.ts';
import { normalizeFieldValue } from '#shared/forms/index.ts';
import { MANDATORY_MESSAGE } from '#shared/validation/validate.ts';
import { useToast } from '../../app/hooks.ts';
import { altas as text } from '../../i18n/es-altas.ts';
import { Button } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import { useCreateSubmissionMutation, useUpdateSubmissionMutation } from './altasApi.ts';
import { fieldErrors, pagedFields, readServerFailure, withValue } from './altasModel.ts';
import { FieldInput } from './FieldInput.tsx';
import { focusFirstInvalid } from './focus.ts';
import { SubmissionState } from './SubmissionState.tsx';

export interface SubmissionModalProps {
  /** The registration to show and edit; null for 'Nueva Alta'. */
  submission: Submission | null;
  companies: readonly ClientCompany[];
  definition: FormDefinition;
  onClose: () => void;
}

/** The values as the API takes them: dates as ISO days, checkboxes as booleans, files as they were. */
function valuesToSave(definition: FormDefinition, values: Record<string, unknown>): FieldsValues {
  const saved: FieldsValues = {};
  for (const [key, value] of Object.entries(values)) {
    const field = definition.fields[key];
    if (field?.fieldType === 'file') {
      if (typeof value === 'object' && value !== null) saved[key] = value as FieldsValues[string];
      continue;
    }
    const normalized = field ? normalizeFieldValue(field.fieldType, value) : value;
    if (typeof normalized === 'string' || typeof normalized === 'boolean' || normalized === null) saved[key] = normalized;
  }
  return saved;
}

/** 'Ver Alta' / 'Nueva Alta': the company and its group, then every field of the form by page. */
export function SubmissionModal({ submission, companies, definition, onClose }: SubmissionModalProps) {
  const toast = useToast();
  const companyId = useId();
  const groupId = useId();
  const [createSubmission, creating] = useCreateSubmissionMutation();
  const [updateSubmission, updating] = useUpdateSubmissionMutation();
  const [company, setCompany] = useState(submission?.company._id ?? '');
  const [groupKey, setGroupKey] = useState(submission?.groupKey ?? '');
  const [values, setValues] = useState<Record<string, unknown>>(() => ({ ...(submission?.fieldsValues ?? {}) }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [companyError, setCompanyError] = useState<string | null>(null);
  // Where the alta stands: 'Marcar como registrada' answers the alta as it is now.
  const [shown, setShown] = useState<Submission | null>(submission);
  const chosenCompany = companies.find((item) => item._id === company);
  const pages = pagedFields(definition.fieldsOrder, definition.fields, definition.defaultFormPages);
  const allKeys = pages.flatMap((page) => page.keys);
  const editing = submission !== null;

  const change = (key: string, value: string | boolean) => {
    setValues((current) => withValue(definition.fields, current, key, value));
    setErrors(({ [key]: _dropped, ...rest }) => rest);
  };

  // A group carries the advisor's values (Jornada, contrato…): choosing one fills them in.
  const chooseGroup = (key: string) => {
    setGroupKey(key);
    const group = chosenCompany?.groups.find((item) => item.key === key);
    if (!group) return;
    setValues((current) => {
      let next = current;
      for (const [field, value] of Object.entries(group.fieldsValues)) {
        if (definition.fields[field]?.fieldWriter === 'userBefore' && value !== null) next = withValue(definition.fields, next, field, value);
      }
      return next;
    });
  };

  const save = async () => {
    const found = fieldErrors(definition.fields, allKeys, values);
    const missingCompany = !editing && company === '';
    setErrors(found);
    setCompanyError(missingCompany ? MANDATORY_MESSAGE : null);
    if (missingCompany || Object.keys(found).length > 0) {
      focusFirstInvalid();
      return;
    }
    const fieldsValues = valuesToSave(definition, values);
    try {
      if (submission) await updateSubmission({ id: submission._id, fieldsValues }).unwrap();
      else await createSubmission({ companyId: company, groupKey: groupKey === '' ? null : groupKey, fieldsValues }).unwrap();
      toast.success(text.submission.saved);
      onClose();
    } catch (error) {
      const failure = readServerFailure(error);
      if (Object.keys(failure.fields).length > 0) setErrors(failure.fields);
      toast.error(text.failed);
      focusFirstInvalid();
    }
  };

  return (
    <Modal
      open
      size="large"
      title={editing ? text.submission.editTitle : text.submission.newTitle}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{text.submission.cancel}</Button>
          <Button loading={creating.isLoading || updating.isLoading} onClick={() => void save()}>{text.submission.save}</Button>
        </>
      }
    >
      <div className="altas-form">
        {shown && <SubmissionState submission={shown} onChange={setShown} />}
        {!editing && companies.length === 0 && <p className="ui-muted">{text.submission.noCompanies}</p>}
        <div className="altas-form__grid">
          <div className="altas-field">
            <label htmlFor={companyId} className="altas-field__label">
              {text.submission.company}<span className="altas-field__required" aria-hidden="true"> *</span>
            </label>
            <select
              id={companyId}
              className="ui-input"
              value={company}
              disabled={editing}
              aria-required
              aria-invalid={companyError ? true : undefined}
              aria-describedby={companyError ? `${companyId}-error` : undefined}
              onChange={(event) => {
                setCompany(event.target.value);
                setGroupKey('');
                setCompanyError(null);
              }}
            >
              <option value="">{text.submission.chooseCompany}</option>
              {companies.map((item) => <option key={item._id} value={item._id}>{item.fieldsValues.nombreEmpresa}</option>)}
              {editing && !chosenCompany && submission && <option value={submission.company._id}>{submission.company.name}</option>}
            </select>
            <p className="altas-field__error"><span id={`${companyId}-error`}>{companyError}</span></p>
          </div>
          <div className="altas-field">
            <label htmlFor={groupId} className="altas-field__label">{text.submission.group}</label>
            <select id={groupId} className="ui-input" value={groupKey} disabled={editing || !chosenCompany} onChange={(event) => chooseGroup(event.target.value)}>
              <option value="">{text.submission.chooseGroup}</option>
              {chosenCompany?.groups.map((group) => <option key={group.key} value={group.key}>{group.text}</option>)}
            </select>
          </div>
        </div>
        {pages.map((page) => (
          <fieldset key={page.title} className="altas-form__page">
            <legend>{page.title}</legend>
            <div className="altas-form__grid">
              {page.keys.map((key) => {
                const field = definition.fields[key];
                if (!field) return null;
                const parent = field.dependentKey ? definition.fields[field.dependentKey] : undefined;
                return (
                  <FieldInput
                    key={key}
                    fieldKey={key}
                    field={field}
                    values={values}
                    onChange={change}
                    error={errors[key] ?? null}
                    company={chosenCompany}
                    parentTitle={parent?.title}
                    submissionId={submission?._id}
                  />
                );
              })}
            </div>
          </fieldset>
        ))}
      </div>
    </Modal>
  );
}
