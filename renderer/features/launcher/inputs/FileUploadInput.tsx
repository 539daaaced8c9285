import { useEffect, useId, useRef, useState } from 'react';
import { flowsPaths, pathFor } from '#shared/api/flows.ts';
import type { UploadedFile } from '#shared/api/flows.ts';
import type { FlowInputDefinition } from '#shared/flows/definition.ts';
import { useEmbedded, useSession, useToast } from '../../../app/hooks.ts';
import { widgets } from '../../../i18n/es-widgets.ts';
import { launcher as text } from '../../../i18n/es-launcher.ts';
import { FilePicker } from '../../../ui/FilePicker.tsx';
import { uploadFiles } from '../upload.ts';
import type { LauncherForm } from '../useLauncherForm.ts';
import { FieldMessage } from './FieldMessage.tsx';

/**
 * A FileUpload input (spec §5 Uploads): the file picker's rules (size with the 'filesizeexceeded'
 * toast, allowed types, normalised names) and an upload to storage as soon as files are chosen, with
 * its progress. The input's value is the stored files by id; a refused upload shows the server's message.
 */
export function FileUploadInput({ input, launcherForm }: { input: FlowInputDefinition; launcherForm: LauncherForm }) {
  const { flow, form, rules, setText, setUploadBusy } = launcherForm;
  const embedded = useEmbedded();
  const toast = useToast();
  const language = useSession().user?.language;
  const errorId = useId();
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // Which chosen file became which stored upload.
  const stored = useRef(new Map<File, UploadedFile>());
  const pending = useRef<AbortController | null>(null);
  const key = input.key;

  useEffect(() => () => pending.current?.abort(), []);

  const publish = (chosen: readonly File[]) => {
    const value = chosen.flatMap((file) => {
      const upload = stored.current.get(file);
      return upload ? [{ uploadId: upload.id, name: upload.name }] : [];
    });
    setText(key, value.length === 0 ? '' : JSON.stringify(value));
  };

  const choose = async (next: File[]) => {
    setFailure(null);
    const missing = next.filter((file) => !stored.current.has(file));
    if (missing.length === 0) {
      setFiles(next);
      publish(next);
      return;
    }
    pending.current?.abort();
    const controller = new AbortController();
    pending.current = controller;
    setFiles(next);
    setProgress(0);
    setUploadBusy(key, true);
    try {
      const uploaded = await uploadFiles(missing, { signal: controller.signal, language, onProgress: (share) => setProgress(Math.round(share * 100)) });
      missing.forEach((file, index) => {
        const upload = uploaded[index];
        if (upload) stored.current.set(file, upload);
      });
      publish(next);
    } catch (error) {
      if (controller.signal.aborted) return;
      const message = error instanceof Error ? error.message : text.inputs.uploadFailed;
      setFailure(message);
      toast.error(message);
      // What could not be stored is not kept as chosen.
      const kept = next.filter((file) => stored.current.has(file));
      setFiles(kept);
      publish(kept);
    } finally {
      if (pending.current === controller) {
        pending.current = null;
        setProgress(null);
        setUploadBusy(key, false);
      }
    }
  };

  const error = form.errors[key];
  return (
    <div className={`launcher-input launcher-file${error ? ' launcher-input--invalid' : ''}`}>
      <span className="app-field__label" id={`${errorId}-label`}>{input.label}{input.required ? ' *' : ''}</span>
      {input.help && <p className="ui-muted launcher-input__help">{input.help}</p>}
      {/* Spec §4: the flow's template beside its inputs, to fill in before uploading. */}
      {flow.template !== undefined && (
        <p className="launcher-file__template">
          <a href={pathFor(flowsPaths.template, { id: flow.id })} download={flow.template}>{text.inputs.downloadTemplate}</a>
          <span className="ui-muted"> {text.inputs.templateHint}</span>
        </p>
      )}
      <FilePicker
        label={input.label}
        files={files}
        onFilesChange={(next) => void choose(next)}
        accept={input.config?.accept}
        multiple={input.config?.multiple ?? false}
        maxSize={input.config?.maxSize}
        embedded={embedded}
        onSizeExceeded={(exceeded) => toast.error(widgets.filePicker.fileSizeExceeded(exceeded.actual, exceeded.limit))}
      />
      {/* Always there, so the progress line appearing does not push the buttons away. */}
      <div className="launcher-file__status" aria-live="polite">
        {progress !== null && (
          <>
            <progress max={100} value={progress} aria-label={text.inputs.uploadingLabel} />
            <span>{text.inputs.uploading(progress)}</span>
          </>
        )}
        {progress === null && failure && <span role="alert" className="launcher-input__failure">{failure}</span>}
        {progress === null && !failure && stored.current.size > 0 && files.length > 0 && (
          <span className="launcher-file__done">{text.inputs.uploaded(files.length)}</span>
        )}
      </div>
      <FieldMessage id={errorId} error={error} rule={rules[key] ?? {}} />
    </div>
  );
}
