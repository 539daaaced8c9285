import { useEffect, useId, useState } from 'react';
import { ALTAS_LOGO_MAX_BYTES, ALTAS_LOGO_TYPES, URL_IN_USE_MESSAGE } from '#shared/api/altas.ts';
import type { FormConfiguration, FormDefinition, FormSettings } from '#shared/api/altas.ts';
import { FORM_FLOWS_URL_PREFIX, formConfigSlug, validateFormConfig } from '#shared/forms/index.ts';
import { TOAST_DURATION_MS, useAppDispatch, useSession, useToast } from '../../app/hooks.ts';
import { altas as text } from '../../i18n/es-altas.ts';
import { Button, Spinner } from '../../ui/index.ts';
import { Modal } from '../../ui/Modal.tsx';
import {
  formChanged, useAltasFormConfigurationQuery, useAltasFormDefinitionQuery, useAltasFormSettingsQuery, useUpdateFormConfigurationMutation,
} from './altasApi.ts';
import type { FieldOverride } from './altasApi.ts';
import { AltasTransferError, saveFormSettings } from './altasTransfer.ts';
import { focusSoon } from './focus.ts';
import { FormFieldsSettings } from './FormFieldsSettings.tsx';

/** The logo's problem, or null: images only, up to the size cap (the server judges the bytes again). */
export function logoProblem(file: File): string | null {
  if (!(ALTAS_LOGO_TYPES as readonly string[]).includes(file.type)) return text.formConfig.logoType;
  if (file.size > ALTAS_LOGO_MAX_BYTES) return text.formConfig.logoSize;
  return null;
}

/** 'Configuración del formulario': title, URL, logo and the fields' settings. */
export function FormConfigModal({ onClose }: { onClose: () => void }) {
  const settings = useAltasFormSettingsQuery();
  const definition = useAltasFormDefinitionQuery();
  // A firm without companies yet may have no saved configuration: the definition's pages stand in.
  const configuration = useAltasFormConfigurationQuery();
  const failed = settings.isError || definition.isError;
  const ready = settings.data !== undefined && definition.data !== undefined && !configuration.isLoading;
  const formId = useId();
  const [saving, setSaving] = useState(false);

  return (
    <Modal
      open
      size="large"
      title={text.formConfig.title}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{text.formConfig.cancel}</Button>
          {/* The editor is a <form>: this button and Enter in a field both save it. */}
          <Button type="submit" form={formId} loading={saving} disabled={!ready}>{text.formConfig.save}</Button>
        </>
      }
    >
      {settings.data && definition.data && ready ? (
        <FormConfigEditor formId={formId} settings={settings.data} definition={definition.data} configuration={configuration.data} onSavingChange={setSaving} />
      ) : failed ? (
        <p role="alert" className="altas-field__error">{text.formConfig.loadFailed}</p>
      ) : (
        <div className="altas-loading" role="status">
          <Spinner size="small" decorative />
          <span>{text.formConfig.loading}</span>
        </div>
      )}
    </Modal>
  );
}

interface EditorProps {
  formId: string;
  settings: FormSettings;
  definition: FormDefinition;
  configuration: FormConfiguration | undefined;
  onSavingChange: (saving: boolean) => void;
}

function FormConfigEditor({ formId, settings, definition, configuration, onSavingChange }: EditorProps) {
  const toast = useToast();
  const dispatch = useAppDispatch();
  const language = useSession().user?.language ?? 'es';
  const titleId = useId();
  const urlId = useId();
  const logoId = useId();
  const copyId = useId();
  const [updateConfiguration] = useUpdateFormConfigurationMutation();
  const [saved, setSaved] = useState(settings);
  const [title, setTitle] = useState(settings.title ?? '');
  const [slug, setSlug] = useState(formConfigSlug(settings.url ?? ''));
  const [logo, setLogo] = useState<File | null>(null);
  const [logoPreview, setLogoPreview] = useState<string | null>(null);
  const [removeLogo, setRemoveLogo] = useState(false);
  const [changes, setChanges] = useState<Record<string, FieldOverride>>({});
  const [errors, setErrors] = useState<Partial<Record<'title' | 'url' | 'logo', string>>>({});
  const [saving, setSaving] = useState(false);

  useEffect(() => onSavingChange(saving), [saving, onSavingChange]);

  useEffect(() => {
    if (!logo) return undefined;
    const url = URL.createObjectURL(logo);
    setLogoPreview(url);
    return () => URL.revokeObjectURL(url);
  }, [logo]);

  const shownLogo = logo ? logoPreview : removeLogo ? null : saved.logo;
  const publicLink = saved.url ? `${window.location.origin}${saved.url}` : null;

  const chooseLogo = (file: File | undefined) => {
    if (!file) return;
    const problem = logoProblem(file);
    setErrors((current) => ({ ...current, logo: problem ?? undefined }));
    if (problem) return;
    setLogo(file);
    setRemoveLogo(false);
  };

  const copyLink = async () => {
    if (!publicLink) return;
    try {
      await navigator.clipboard.writeText(publicLink);
      toast.success(text.formConfig.copied, TOAST_DURATION_MS.copy);
    } catch {
      toast.error(text.failed);
    }
  };

  const save = async () => {
    // Title and URL required, the URL by its rule (lowercase letters, digits and dashes), said under the field.
    const found = validateFormConfig({ title, url: slug });
    setErrors(found);
    if (found.title || found.url) focusSoon(found.title ? titleId : urlId);
    if (found.title || found.url || saving) return;
    setSaving(true);
    try {
      const answer = await saveFormSettings({ title, url: slug, logo, removeLogo }, language);
      setSaved(answer);
      setLogo(null);
      setRemoveLogo(false);
      if (Object.keys(changes).length > 0) {
        const formPages = configuration && configuration.formPages.length > 0 ? configuration.formPages : definition.defaultFormPages;
        const fields: Record<string, FieldOverride> = { ...(configuration?.fields ?? {}) };
        for (const [key, change] of Object.entries(changes)) fields[key] = { ...fields[key], ...change };
        await updateConfiguration({ name: configuration?.name || title.trim(), formPages, fields }).unwrap();
        setChanges({});
      }
      toast.success(text.formConfig.saved);
      // The busy Save button dropped focus: hand it to the next step, copying the link.
      focusSoon(copyId);
    } catch (error) {
      if (error instanceof AltasTransferError && error.status === 409) {
        setErrors({ url: URL_IN_USE_MESSAGE });
        toast.error(URL_IN_USE_MESSAGE);
        focusSoon(urlId);
      } else if (error instanceof AltasTransferError && (error.fields.url !== undefined || error.fields.title !== undefined)) {
        // The server's rule under its field (the URL's letters, the title's length), not only 'Revisa los datos enviados'.
        setErrors({ url: error.fields.url, title: error.fields.title });
        toast.error(error.fields.url ?? error.fields.title ?? error.message);
        focusSoon(error.fields.url !== undefined ? urlId : titleId);
      } else {
        toast.error(error instanceof AltasTransferError ? error.message : text.failed);
        focusSoon(titleId);
      }
    } finally {
      setSaving(false);
      dispatch(formChanged());
    }
  };

  return (
    <form
      id={formId}
      className="altas-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div className="altas-field">
        <label htmlFor={titleId} className="altas-field__label">
          {text.formConfig.formTitle}<span className="altas-field__required" aria-hidden="true"> *</span>
        </label>
        <input
          id={titleId}
          className="ui-input"
          value={title}
          aria-required
          aria-invalid={errors.title ? true : undefined}
          aria-describedby={`${titleId}-error`}
          onChange={(event) => setTitle(event.target.value)}
        />
        <p className="altas-field__error"><span id={`${titleId}-error`}>{errors.title}</span></p>
      </div>
      <div className="altas-field">
        <label htmlFor={urlId} className="altas-field__label">
          {text.formConfig.url}<span className="altas-field__required" aria-hidden="true"> *</span>
        </label>
        <div className="altas-url">
          <span className="altas-url__prefix" id={`${urlId}-prefix`}>{FORM_FLOWS_URL_PREFIX}</span>
          <input
            id={urlId}
            className="ui-input altas-url__input"
            value={slug}
            aria-required
            aria-invalid={errors.url ? true : undefined}
            aria-describedby={`${urlId}-prefix ${urlId}-error`}
            onChange={(event) => setSlug(formConfigSlug(event.target.value))}
          />
        </div>
        <p className="altas-field__error"><span id={`${urlId}-error`}>{errors.url}</span></p>
        {publicLink && (
          <div className="altas-url__link">
            <span className="ui-muted">{text.formConfig.link}</span>
            <a href={publicLink} target="_blank" rel="noreferrer">{publicLink}</a>
            <Button id={copyId} variant="ghost" onClick={() => void copyLink()}>{text.formConfig.copyLink}</Button>
          </div>
        )}
      </div>
      <div className="altas-field">
        <label htmlFor={logoId} className="altas-field__label">{text.formConfig.logo}</label>
        <div className="altas-logo">
          {shownLogo && <img src={shownLogo} alt={text.formConfig.logoPreview} className="altas-logo__preview" />}
          <input
            id={logoId}
            type="file"
            accept={ALTAS_LOGO_TYPES.join(',')}
            aria-describedby={`${logoId}-hint ${logoId}-error`}
            onChange={(event) => chooseLogo(event.target.files?.[0])}
          />
          {shownLogo && (
            <Button variant="ghost" onClick={() => { setLogo(null); setRemoveLogo(true); }}>{text.formConfig.removeLogo}</Button>
          )}
        </div>
        <span id={`${logoId}-hint`} className="ui-muted altas-field__hint">{text.formConfig.logoHint}</span>
        <p className="altas-field__error"><span id={`${logoId}-error`}>{errors.logo}</span></p>
      </div>
      <FormFieldsSettings
        definition={definition}
        changes={changes}
        onChange={(key, change) => setChanges((current) => ({ ...current, [key]: { ...current[key], ...change } }))}
      />
    </form>
  );
}
