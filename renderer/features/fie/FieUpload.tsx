import { useEffect, useId, useRef, useState } from 'react';
import type { DragEvent } from 'react';
import type { FieUploadResult } from '#shared/api/fie.ts';
import { processingToast } from '#shared/fie/messages.ts';
import { useAppDispatch, useSession } from '../../app/hooks.ts';
import { toastShown } from '../../app/toasts.ts';
import { fie as text } from '../../i18n/es-fie.ts';
import { Button, IconClose, IconUpload, Spinner } from '../../ui/index.ts';
import { fieChanged } from './fieApi.ts';
import { FieTransferError, uploadFieFiles } from './fieTransfer.ts';

/**
 * 'Subir FIE': files dropped on the zone or chosen with the button go to the server in one request;
 * its answer becomes one §8 toast (5 s, an error toast when nothing was processed) and the failed
 * files' reasons stay listed under the zone until dismissed. The server judges each file by content,
 * so the file dialog's accept list is a hint, never a filter.
 */
export function FieUpload() {
  const dispatch = useAppDispatch();
  const language = useSession().user?.language ?? 'es';
  const inputRef = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  const [sending, setSending] = useState(0);
  const [failures, setFailures] = useState<FieUploadResult[]>([]);

  // A file dropped beside the zone would make the browser open it and leave the screen: the page takes such drops and does nothing.
  useEffect(() => {
    const ignoreFileDrop = (event: globalThis.DragEvent) => {
      if (Array.from(event.dataTransfer?.types ?? []).includes('Files')) event.preventDefault();
    };
    window.addEventListener('dragover', ignoreFileDrop);
    window.addEventListener('drop', ignoreFileDrop);
    return () => {
      window.removeEventListener('dragover', ignoreFileDrop);
      window.removeEventListener('drop', ignoreFileDrop);
    };
  }, []);

  const upload = async (files: readonly File[]) => {
    if (files.length === 0 || sending > 0) return;
    setSending(files.length);
    try {
      const answer = await uploadFieFiles(files, language);
      const toast = processingToast(answer);
      if (toast.lines.length > 0) dispatch(toastShown(toast.kind, toast.lines.join('\n'), toast.durationMs));
      setFailures(answer.results.filter((result) => result.status === 'failed'));
      if (answer.processed > 0) dispatch(fieChanged());
    } catch (error) {
      dispatch(toastShown('error', error instanceof FieTransferError ? error.message : text.upload.requestFailed));
    } finally {
      setSending(0);
      // The same file chosen again must fire a change.
      if (inputRef.current) inputRef.current.value = '';
    }
  };

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setDragging(false);
    void upload([...event.dataTransfer.files]);
  };

  const busy = sending > 0;
  return (
    <section className="ui-card fie-upload" aria-label={text.upload.title} aria-busy={busy || undefined}>
      <div
        className={dragging ? 'fie-upload__zone fie-upload__zone--active' : 'fie-upload__zone'}
        data-testid="fie-drop-zone"
        onDragEnter={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragOver={(event) => event.preventDefault()}
        onDragLeave={(event) => {
          // Leaving for a child of the zone is not leaving the zone.
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
      >
        <IconUpload size={24} className="fie-upload__icon" />
        <p id={hintId} className="fie-upload__hint">{text.upload.dropHint}</p>
        <div className="fie-upload__actions">
          <Button variant="secondary" aria-describedby={hintId} loading={busy} disabled={busy} onClick={() => inputRef.current?.click()}>
            {text.upload.choose}
          </Button>
          {/* Always the same size: the busy text takes its place without moving the zone. */}
          <span className="fie-upload__status" role="status">
            {busy && (
              <>
                <Spinner size="small" decorative />
                <span>{text.upload.sending(sending)}</span>
              </>
            )}
          </span>
        </div>
        <input
          ref={inputRef}
          type="file"
          multiple
          accept={text.upload.accept}
          className="ui-visually-hidden"
          tabIndex={-1}
          // Reached through the 'Elegir archivos' button above: not announced as a second one.
          aria-hidden="true"
          onChange={(event) => void upload([...(event.target.files ?? [])])}
        />
      </div>
      {failures.length > 0 && (
        <div className="fie-upload__failures">
          <div className="fie-upload__failures-head">
            <h2 className="fie-upload__failures-title">{text.upload.failedTitle}</h2>
            <button type="button" className="ui-icon-button" aria-label={text.upload.dismissFailed} onClick={() => setFailures([])}>
              <IconClose size={16} />
            </button>
          </div>
          <ul className="fie-upload__failures-list">
            {failures.map((failure, index) => (
              <li key={`${failure.fileName}-${index}`}>
                <span className="fie-upload__file">{failure.fileName}</span>: {failure.reason ?? text.upload.requestFailed}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
