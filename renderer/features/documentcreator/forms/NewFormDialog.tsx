import { useId, useState } from 'react';
import type { HttpError } from '../../../api/baseApi.ts';
import { useDocTemplatesQuery } from '../../../api/documents.ts';
import { useCreateOnlineFormMutation } from '../../../api/onlineForms.ts';
import { formsTab as text } from '../../../i18n/es-onlineforms.ts';
import { Button, Spinner } from '../../../ui/index.ts';
import { Modal } from '../../../ui/Modal.tsx';
import { newFormBody } from './formEditorModel.ts';

export interface NewFormDialogProps {
  open: boolean;
  onClose: () => void;
  onCreated: (id: string) => void;
}

/** 'Nuevo formulario': a template is chosen and the form is made from its placeholders, as a draft to edit. */
export function NewFormDialog({ open, onClose, onCreated }: NewFormDialogProps) {
  if (!open) return null;
  return <NewFormDialogOpen onClose={onClose} onCreated={onCreated} />;
}

function NewFormDialogOpen({ onClose, onCreated }: Omit<NewFormDialogProps, 'open'>) {
  const templates = useDocTemplatesQuery({}, { refetchOnMountOrArgChange: true });
  const [create, creating] = useCreateOnlineFormMutation();
  const [templateId, setTemplateId] = useState('');
  const [error, setError] = useState<string | null>(null);
  const selectId = useId();
  const chosen = templates.data?.find((template) => template.id === templateId);
  const noFields = chosen !== undefined && chosen.placeholders.length === 0;

  const submit = async () => {
    if (chosen === undefined || noFields) return;
    setError(null);
    try {
      const form = await create(newFormBody(chosen)).unwrap();
      onCreated(form.id);
    } catch (failure) {
      setError((failure as HttpError).message || text.editor.saveFailed);
    }
  };

  return (
    <Modal
      open
      size="small"
      title={text.chooseTemplate.title}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>{text.chooseTemplate.cancel}</Button>
          <Button loading={creating.isLoading} disabled={chosen === undefined || noFields} onClick={() => void submit()}>{text.chooseTemplate.create}</Button>
        </>
      }
    >
      {templates.isError ? (
        <p role="alert">{text.chooseTemplate.loadFailed}</p>
      ) : templates.data === undefined ? (
        <Spinner />
      ) : templates.data.length === 0 ? (
        <p>{text.chooseTemplate.noTemplates}</p>
      ) : (
        <div className={`app-field forms-field${noFields || error ? ' app-field--invalid' : ''}`}>
          <label htmlFor={selectId}>{text.chooseTemplate.label}</label>
          <select
            id={selectId}
            className="ui-input"
            value={templateId}
            aria-invalid={noFields || error !== null || undefined}
            aria-describedby={`${selectId}-hint ${selectId}-error`}
            onChange={(event) => setTemplateId(event.target.value)}
          >
            <option value="">{text.chooseTemplate.placeholder}</option>
            {templates.data.map((template) => <option key={template.id} value={template.id}>{template.name}</option>)}
          </select>
          <p id={`${selectId}-hint`} className="ui-muted forms-hint">
            {chosen && !noFields ? chosen.placeholders.map((key) => `[[${key}]]`).join(', ') : text.chooseTemplate.hint}
          </p>
          <p className="app-field__error"><span id={`${selectId}-error`}>{noFields ? text.chooseTemplate.noPlaceholders : error}</span></p>
        </div>
      )}
    </Modal>
  );
}
