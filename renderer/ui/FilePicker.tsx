import { useId, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import { DEFAULT_ACCEPT, checkUploadSize, filterAcceptedFiles, formatBytes } from '#shared/files/index.ts';
import type { FileSizeExceeded } from '#shared/files/index.ts';
import { widgets } from '../i18n/es-screens.ts';
import { IconClose, IconUpload } from './icons.tsx';

const text = widgets.filePicker;

interface SizeRules {
  /** Total bytes allowed; the shared default is 100,000,000. */
  maxSize?: number;
  /** The desktop app reads files from disk, so it does not limit their size. */
  embedded?: boolean;
  /** false turns the size check off. */
  checkSize?: boolean;
}

export interface FilesPickerProps extends SizeRules {
  mode?: 'files';
  label: string;
  files: readonly File[];
  onFilesChange: (files: File[]) => void;
  /** The accept list of a file input; every allowed type by default. */
  accept?: string;
  multiple?: boolean;
  /** Also told when a selection is too large, e.g. to show the error as a toast. */
  onSizeExceeded?: (error: FileSizeExceeded) => void;
}

export interface FolderPickerProps {
  mode: 'folder';
  label: string;
  folderPath: string;
  onFolderPathChange: (path: string) => void;
}

export type FilePickerProps = FilesPickerProps | FolderPickerProps;

/** Files by drag and drop or a file dialog, or (for the desktop robots) a folder path typed in. */
export function FilePicker(props: FilePickerProps) {
  return props.mode === 'folder' ? <FolderPathInput {...props} /> : <FilesDropZone {...props} />;
}

function FolderPathInput({ label, folderPath, onFolderPathChange }: FolderPickerProps) {
  const inputId = useId();
  const hintId = useId();
  return (
    <div className="ui-file-picker ui-file-picker--folder" role="group" aria-label={label}>
      <label htmlFor={inputId} className="ui-file-picker__label">{text.folderPath}</label>
      <input
        id={inputId}
        className="ui-input"
        value={folderPath}
        aria-describedby={hintId}
        onChange={(event) => onFolderPathChange(event.target.value)}
      />
      <span id={hintId} className="ui-file-picker__hint">{text.folderPathHint}</span>
    </div>
  );
}

function FilesDropZone({ label, files, onFilesChange, accept = DEFAULT_ACCEPT, multiple = true, maxSize, embedded, checkSize, onSizeExceeded }: FilesPickerProps) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const [sizeError, setSizeError] = useState<FileSizeExceeded | null>(null);
  const [rejected, setRejected] = useState<string[]>([]);

  const apply = (next: File[]) => {
    const error = checkUploadSize(next, { maxSize, embedded, check: checkSize });
    setSizeError(error);
    if (error) {
      // A selection over the limit is refused whole; the previous one stays.
      onSizeExceeded?.(error);
      return;
    }
    onFilesChange(next);
  };

  const add = (incoming: readonly File[]) => {
    const accepted = filterAcceptedFiles(incoming, accept);
    setRejected(incoming.filter((file) => !accepted.includes(file)).map((file) => file.name));
    if (accepted.length === 0) return;
    apply(multiple ? [...files, ...accepted] : accepted.slice(0, 1));
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    add(Array.from(event.dataTransfer.files));
  };

  return (
    <div className="ui-file-picker" role="group" aria-label={label}>
      <div
        className={dragging ? 'ui-file-picker__zone ui-file-picker__zone--active' : 'ui-file-picker__zone'}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <IconUpload size={28} className="ui-file-picker__icon" />
        <span>
          {text.dropZone}{' '}
          <button type="button" className="ui-link-button" onClick={() => inputRef.current?.click()}>
            {text.chooseFiles}
          </button>
        </span>
        <input
          ref={inputRef}
          type="file"
          hidden
          accept={accept}
          multiple={multiple}
          data-testid="file-input"
          onChange={(event) => {
            add(Array.from(event.target.files ?? []));
            event.target.value = '';
          }}
        />
      </div>
      {sizeError && (
        <p role="alert" className="ui-file-picker__error">{text.fileSizeExceeded(sizeError.actual, sizeError.limit)}</p>
      )}
      {rejected.length > 0 && (
        <p role="alert" className="ui-file-picker__error">{text.rejectedType(rejected.join(', '))}</p>
      )}
      {files.length > 0 && (
        <>
          <p className="ui-file-picker__count" aria-live="polite">{text.selected(files.length)}</p>
          <ul className="ui-file-picker__list" aria-label={text.selectedList}>
            {files.map((file, index) => (
              <li key={`${file.name}-${index}`} className="ui-file-picker__file">
                <span className="ui-file-picker__name">{file.name}</span>
                <span className="ui-muted">{formatBytes(file.size)}</span>
                <button
                  type="button"
                  className="ui-icon-button"
                  aria-label={text.removeFile(file.name)}
                  onClick={() => apply(files.filter((_, position) => position !== index))}
                >
                  <IconClose size={16} />
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
