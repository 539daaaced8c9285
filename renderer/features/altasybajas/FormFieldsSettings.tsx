import type { FormDefinition } from '#shared/api/altas.ts';
import { altas as text } from '../../i18n/es-altas.ts';
import { Toggle } from '../../ui/index.ts';
import type { FieldOverride } from './altasApi.ts';

export interface FieldSetting {
  required: boolean;
  fieldWriter: 'userBefore' | 'client';
}

/** Each field's setting as the definition has it now, with the advisor's unsaved changes over it. */
export function fieldSetting(definition: FormDefinition, changes: Record<string, FieldOverride>, key: string): FieldSetting {
  const field = definition.fields[key];
  return {
    required: changes[key]?.required ?? field?.required === true,
    fieldWriter: changes[key]?.fieldWriter ?? field?.fieldWriter ?? 'client',
  };
}

export interface FormFieldsSettingsProps {
  definition: FormDefinition;
  changes: Record<string, FieldOverride>;
  onChange: (key: string, change: FieldOverride) => void;
}

/** Spec §5 Form config's fields: per field whether it is required and who fills it; locked fields say why they cannot change. */
export function FormFieldsSettings({ definition, changes, onChange }: FormFieldsSettingsProps) {
  return (
    <fieldset className="altas-form__page">
      <legend>{text.formConfig.fields}</legend>
      <ul className="altas-config-fields">
        {/* Column heads for sighted users; each switch and list already names its field for screen readers. */}
        <li className="altas-config-field altas-config-field--head" aria-hidden="true">
          <span>{text.formConfig.field}</span>
          <span>{text.formConfig.required}</span>
          <span>{text.formConfig.writer}</span>
        </li>
        {definition.fieldsOrder.map((key) => {
          const field = definition.fields[key];
          if (!field) return null;
          const setting = fieldSetting(definition, changes, key);
          const locked = field.locked === true;
          return (
            <li key={key} className="altas-config-field">
              <span className="altas-config-field__title">{field.title}</span>
              <Toggle
                label={`${text.formConfig.required}: ${field.title}`}
                checked={setting.required}
                disabled={locked}
                onChange={(required) => onChange(key, { required })}
              />
              <label className="altas-config-field__writer">
                <span className="altas-config-field__writer-label">{text.formConfig.writer}</span>
                <select
                  className="ui-input"
                  aria-label={`${text.formConfig.writer}: ${field.title}`}
                  value={setting.fieldWriter}
                  disabled={locked}
                  onChange={(event) => onChange(key, { fieldWriter: event.target.value === 'userBefore' ? 'userBefore' : 'client' })}
                >
                  <option value="userBefore">{text.formConfig.writerAdvisor}</option>
                  <option value="client">{text.formConfig.writerCompany}</option>
                </select>
              </label>
              {locked && <p className="ui-muted altas-config-field__locked">{text.formConfig.locked}</p>}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}
