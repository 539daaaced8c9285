import { useId } from 'react';
import { ONLINE_FIELD_TYPES, ONLINE_FIELD_TYPE_LABELS } from '#shared/documents/form-fields.ts';
import type { OnlineFieldType } from '#shared/documents/form-fields.ts';
import { formsTab as text } from '../../../i18n/es-onlineforms.ts';
import { Button, IconChevronDown, IconChevronUp, IconClose, IconPlus } from '../../../ui/index.ts';
import { Toggle } from '../../../ui/Toggle.tsx';
import { addPlaceholder, missingPlaceholders, moveField, removeField, updateField } from './formEditorModel.ts';
import type { DraftErrors, DraftField, FormDraft } from './formEditorModel.ts';

export interface FormEditorProps {
  draft: FormDraft;
  onChange: (draft: FormDraft) => void;
  errors: DraftErrors;
  /** The template's placeholders, to offer back the ones the form dropped; empty when unknown. */
  placeholders: readonly string[];
  readOnly: boolean;
}

/** The form's title and explanation, its fields (question, type, required, help, options, order) and 'Pedir firma'. */
export function FormEditor({ draft, onChange, errors, placeholders, readOnly }: FormEditorProps) {
  const titleId = useId();
  const descriptionId = useId();
  const setFields = (fields: DraftField[]) => onChange({ ...draft, fields });
  const missing = missingPlaceholders(placeholders, draft.fields);

  return (
    <fieldset className="forms-editor" disabled={readOnly}>
      <section className="ui-card ui-section" aria-labelledby={`${titleId}-section`}>
        <h3 id={`${titleId}-section`} className="ui-section__title">{text.editor.details}</h3>
        <div className={`app-field forms-field${errors.title ? ' app-field--invalid' : ''}`}>
          <label htmlFor={titleId}>{text.editor.titleLabel}</label>
          <input
            id={titleId}
            className="ui-input"
            value={draft.title}
            maxLength={200}
            aria-invalid={errors.title ? true : undefined}
            aria-describedby={`${titleId}-error`}
            onChange={(event) => onChange({ ...draft, title: event.target.value })}
          />
          <p className="app-field__error"><span id={`${titleId}-error`}>{errors.title}</span></p>
        </div>
        <div className="app-field forms-field">
          <label htmlFor={descriptionId}>{text.editor.description}</label>
          <textarea id={descriptionId} className="ui-input" rows={3} maxLength={2000} value={draft.description} onChange={(event) => onChange({ ...draft, description: event.target.value })} />
        </div>
        <Toggle
          label={text.editor.requireSignature}
          description={text.editor.requireSignatureHint}
          checked={draft.requireSignature}
          disabled={readOnly}
          onChange={(requireSignature) => onChange({ ...draft, requireSignature })}
        />
      </section>
      <section className="ui-card ui-section" aria-labelledby={`${titleId}-fields`}>
        <h3 id={`${titleId}-fields`} className="ui-section__title">{text.editor.fields}</h3>
        <p className="ui-muted">{text.editor.fieldsHint}</p>
        {errors.fields && <p className="app-field__error" role="alert">{errors.fields}</p>}
        <ol className="forms-fields">
          {draft.fields.map((field, index) => (
            <FieldRow
              key={field.key}
              index={index}
              count={draft.fields.length}
              field={field}
              errors={errors}
              onChange={(patch) => setFields(updateField(draft.fields, index, patch))}
              onMove={(delta) => setFields(moveField(draft.fields, index, delta))}
              onRemove={() => setFields(removeField(draft.fields, index))}
            />
          ))}
        </ol>
        {missing.length > 0 && !readOnly && (
          <div className="forms-missing">
            <p className="ui-muted">{text.editor.missingHint}</p>
            <div className="forms-missing__list">
              {missing.map((key) => (
                <Button key={key} variant="secondary" icon={<IconPlus size={16} />} onClick={() => setFields(addPlaceholder(draft.fields, key))}>
                  {text.editor.addMissing(key)}
                </Button>
              ))}
            </div>
          </div>
        )}
      </section>
    </fieldset>
  );
}

interface FieldRowProps {
  index: number;
  count: number;
  field: DraftField;
  errors: DraftErrors;
  onChange: (patch: Partial<DraftField>) => void;
  onMove: (delta: -1 | 1) => void;
  onRemove: () => void;
}

function FieldRow({ index, count, field, errors, onChange, onMove, onRemove }: FieldRowProps) {
  const id = useId();
  const labelError = errors[`fields.${index}.label`];
  const optionsError = errors[`fields.${index}.options`];
  const name = field.label.trim() === '' ? field.key : field.label;
  return (
    <li className="forms-field-row" aria-labelledby={`${id}-heading`}>
      <div className="forms-field-row__head">
        <h4 id={`${id}-heading`} className="forms-field-row__title">{text.editor.fieldHeading(index + 1, field.key)}</h4>
        <div className="forms-field-row__tools">
          <Button variant="ghost" icon={<IconChevronUp size={18} />} aria-label={text.editor.moveUp(name)} disabled={index === 0} onClick={() => onMove(-1)} />
          <Button variant="ghost" icon={<IconChevronDown size={18} />} aria-label={text.editor.moveDown(name)} disabled={index === count - 1} onClick={() => onMove(1)} />
          <Button variant="ghost" icon={<IconClose size={18} />} aria-label={text.editor.remove(name)} onClick={onRemove} />
        </div>
      </div>
      <div className="forms-field-row__grid">
        <div className={`app-field forms-field${labelError ? ' app-field--invalid' : ''}`}>
          <label htmlFor={`${id}-label`}>{text.editor.label}</label>
          <input
            id={`${id}-label`}
            className="ui-input"
            value={field.label}
            maxLength={200}
            aria-invalid={labelError ? true : undefined}
            aria-describedby={`${id}-label-error`}
            onChange={(event) => onChange({ label: event.target.value })}
          />
          <p className="app-field__error"><span id={`${id}-label-error`}>{labelError}</span></p>
        </div>
        <div className="app-field forms-field">
          <label htmlFor={`${id}-type`}>{text.editor.type}</label>
          <select id={`${id}-type`} className="ui-input" value={field.type} onChange={(event) => onChange({ type: event.target.value as OnlineFieldType })}>
            {ONLINE_FIELD_TYPES.map((type) => <option key={type} value={type}>{ONLINE_FIELD_TYPE_LABELS[type]}</option>)}
          </select>
        </div>
        <div className="app-field forms-field">
          <label htmlFor={`${id}-help`}>{text.editor.help}</label>
          <input id={`${id}-help`} className="ui-input" value={field.help} maxLength={300} onChange={(event) => onChange({ help: event.target.value })} />
        </div>
        <label className="forms-required">
          <input type="checkbox" checked={field.required} onChange={(event) => onChange({ required: event.target.checked })} />
          <span>{text.editor.required}</span>
        </label>
        {field.type === 'select' && (
          <div className={`app-field forms-field forms-field-row__options${optionsError ? ' app-field--invalid' : ''}`}>
            <label htmlFor={`${id}-options`}>{text.editor.options}</label>
            <textarea
              id={`${id}-options`}
              className="ui-input"
              rows={4}
              value={field.optionsText}
              aria-invalid={optionsError ? true : undefined}
              aria-describedby={`${id}-options-error`}
              onChange={(event) => onChange({ optionsText: event.target.value })}
            />
            <p className="app-field__error"><span id={`${id}-options-error`}>{optionsError}</span></p>
          </div>
        )}
      </div>
    </li>
  );
}
