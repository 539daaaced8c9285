import { useId, useState } from 'react';
import { ALTAS_FILE_MAX_BYTES } from '#shared/api/altas.ts';
import type { SubmissionFile } from '#shared/api/altas.ts';
import { formatBytes } from '#shared/files/index.ts';
import { FilePicker, IconClose, Spinner } from '../../ui/index.ts';
import { form as text } from '../../i18n/es-form.ts';
import { fileProblem } from './formModel.ts';
import { uploadFormFile } from './publicFormApi.ts';

export interface FileFieldProps {
  label: string;
  slug: string;
  value: SubmissionFile | null;
  onChange: (value: SubmissionFile | null) => void;
  /** Told when an upload starts and ends, so the form waits for it before sending. */
  onBusyChange: (busy: boolean) => void;
  error?: string;
  required?: boolean;
}

/**
 * A file field (DNI photo, contract): the file is uploaded as soon as it is chosen, and the field's
 * value is what the server answered for it. An image or a PDF, up to ALTAS_FILE_MAX_BYTES.
 */
export function FileField({ label, slug, value, onChange, onBusyChange, error, required }: FileFieldProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  const [uploading, setUploading] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const shown = problem ?? error;

  const upload = async (file: File) => {
    const refused = fileProblem(file);
    setProblem(refused);
    if (refused !== null) return;
    setUploading(file.name);
    onBusyChange(true);
    const result = await uploadFormFile(slug, file);
    setUploading(null);
    onBusyChange(false);
    if (result.ok) onChange(result.data);
    else setProblem(result.error.message ?? text.file.failed);
  };

  return (
    <div
      className={`app-field form-field${shown ? ' app-field--invalid' : ''}`}
      role="group"
      aria-labelledby={labelId}
      aria-describedby={[hintId, shown ? errorId : ''].filter(Boolean).join(' ')}
      aria-invalid={shown ? true : undefined}
      aria-required={required || undefined}
    >
      <span id={labelId} className="app-field__label">{label}</span>
      {value !== null ? (
        <div className="form-file">
          <span className="form-file__name">{value.name}</span>
          <span className="ui-muted">{formatBytes(value.size)}</span>
          <button type="button" className="ui-icon-button" aria-label={text.file.remove(value.name)} onClick={() => onChange(null)}>
            <IconClose size={16} />
          </button>
        </div>
      ) : uploading !== null ? (
        <p className="form-file" aria-live="polite">
          <Spinner size="small" decorative /> {text.file.uploading(uploading)}
        </p>
      ) : (
        <FilePicker
          label={text.file.choose(label)}
          files={[]}
          multiple={false}
          accept={text.file.accept}
          maxSize={ALTAS_FILE_MAX_BYTES}
          onFilesChange={(files) => {
            const [file] = files;
            if (file) void upload(file);
          }}
          onSizeExceeded={() => setProblem(null)}
        />
      )}
      <p id={hintId} className="form-field__hint">{text.file.hint}</p>
      <p className="app-field__error"><span id={errorId}>{shown}</span></p>
    </div>
  );
}
