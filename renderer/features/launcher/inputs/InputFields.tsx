import { useId } from 'react';
import type { ReactNode } from 'react';
import type { FlowInputDefinition, Section } from '#shared/flows/definition.ts';
import { useEmbedded } from '../../../app/hooks.ts';
import { launcher as text } from '../../../i18n/es-launcher.ts';
import { TextField } from '../../../ui/TextField.tsx';
import { effectiveTemplate, fillableHere, isDesktopOnly, shownInputs } from '../launcherModel.ts';
import type { LauncherForm } from '../useLauncherForm.ts';
import { CertificateInput } from './CertificateInput.tsx';
import { ChoiceField } from './ChoiceField.tsx';
import { ColumnMappingInput } from './ColumnMappingInput.tsx';
import { EmailResultInput } from './EmailResultInput.tsx';
import { FieldMessage } from './FieldMessage.tsx';
import { FileUploadInput } from './FileUploadInput.tsx';
import { SelectionDialogInput } from './SelectionDialogInput.tsx';

/** A section's inputs, in their order, each wrapped in the anchor the first-error scroll goes to. */
export function InputFields({ section, launcherForm }: { section: Section; launcherForm: LauncherForm }) {
  const inputs = shownInputs(section);
  return (
    <div className="launcher-inputs">
      {inputs.map((input) => (
        <div key={input.key} ref={launcherForm.anchor(input.key)} className="launcher-inputs__item" data-template={input.template}>
          <InputField input={input} launcherForm={launcherForm} />
        </div>
      ))}
    </div>
  );
}

function InputField({ input, launcherForm }: { input: FlowInputDefinition; launcherForm: LauncherForm }) {
  const { form, rules, setText, touch } = launcherForm;
  const embedded = useEmbedded();
  const key = input.key;
  const rule = rules[key] ?? {};
  const label = rule.required ? `${input.label} *` : input.label;

  switch (effectiveTemplate(input)) {
    case 'Text':
      return <WithHelp help={input.help}><TextField label={label} placeholder={input.placeholder} {...form.field(key)} /></WithHelp>;
    case 'Number':
      return <WithHelp help={input.help}><TextField label={label} placeholder={input.placeholder} inputMode="decimal" {...form.field(key)} /></WithHelp>;
    case 'Date':
      return <WithHelp help={input.help}><TextField label={label} type="date" {...form.field(key)} /></WithHelp>;
    case 'Dropdown': {
      // Registered without an element: its value is set on change (a ComboBox has no native input to read).
      form.register(key);
      return (
        <ChoiceField
          label={input.label}
          options={(input.validValues ?? []).map((choice) => ({ value: choice.key, label: choice.text }))}
          value={form.watch(key) ?? ''}
          onChange={(value) => setText(key, value)}
          onBlur={() => touch(key)}
          emptyLabel={input.placeholder ?? text.inputs.choose}
          error={form.errors[key]}
          rule={rule}
          help={input.help}
        />
      );
    }
    case 'Checkbox':
      return <CheckboxInput input={input} launcherForm={launcherForm} />;
    case 'FileUpload':
      form.register(key);
      return <FileUploadInput input={input} launcherForm={launcherForm} />;
    case 'ColumnMapping':
      form.register(key);
      return <ColumnMappingInput input={input} launcherForm={launcherForm} />;
    case 'Certificate':
      // config.embedded: only this PC's own certificates will do, so the web app cannot offer shared ones.
      if (!fillableHere(input, embedded)) return <DesktopOnlyInput input={input} />;
      form.register(key);
      return <CertificateInput input={input} launcherForm={launcherForm} thisDeviceOnly={isDesktopOnly(input)} />;
    case 'SelectionDialog':
      if (!fillableHere(input, embedded)) return <DesktopOnlyInput input={input} />;
      form.register(key);
      return <SelectionDialogInput input={input} launcherForm={launcherForm} />;
    case 'EmailResult':
      form.register(key);
      return <EmailResultInput input={input} launcherForm={launcherForm} />;
  }
}

function WithHelp({ help, children }: { help?: string; children: ReactNode }) {
  return (
    <>
      {children}
      {help && <p className="ui-muted launcher-input__help">{help}</p>}
    </>
  );
}

function CheckboxInput({ input, launcherForm }: { input: FlowInputDefinition; launcherForm: LauncherForm }) {
  const { form, rules, setText, touch } = launcherForm;
  const id = useId();
  const key = input.key;
  const rule = rules[key] ?? {};
  const error = form.errors[key];
  form.register(key);
  return (
    <div className={`launcher-input launcher-checkbox${error ? ' launcher-input--invalid' : ''}`}>
      <label htmlFor={id} className="launcher-checkbox__label">
        <input
          id={id}
          type="checkbox"
          checked={form.watch(key) === 'true'}
          onChange={(event) => setText(key, event.target.checked ? 'true' : '')}
          onBlur={() => touch(key)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        <span>{rule.required ? `${input.label} *` : input.label}</span>
      </label>
      {input.help && <p className="ui-muted launcher-input__help">{input.help}</p>}
      <FieldMessage id={`${id}-error`} error={error} rule={rule} />
    </div>
  );
}

/**
 * The web app's note for an input only the desktop app can fill: a native file dialog, or a certificate
 * marked config.embedded (spec §3 Input config.embedded; §6 'Certificados locales no disponibles').
 * It is neither checked nor sent from here.
 */
function DesktopOnlyInput({ input }: { input: FlowInputDefinition }) {
  const certificate = input.template === 'Certificate';
  return (
    <div className="launcher-input launcher-desktop-only" role="note" aria-label={input.label}>
      <span className="app-field__label">{input.label}</span>
      <p className="launcher-desktop-only__text">
        {certificate ? `${text.inputs.certificatesUnavailable}. ${text.inputs.onlyInDesktop.certificate}` : text.inputs.onlyInDesktop.selection}
      </p>
    </div>
  );
}
