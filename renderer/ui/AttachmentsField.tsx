import { useId, useRef } from 'react';
import { formatBytes } from '#shared/files/index.ts';
import { support } from '../i18n/es-support.ts';
import { IconClose, IconFile } from './icons.tsx';
import type { Attachments } from './useAttachments.ts';
import './support.css';

const text = support.attachments;

/**
 * A message's files: 'Añadir archivos', then each file with its size, its upload's progress, a
 * remove button and, when the server refused it, the server's reason beside it.
 */
export function AttachmentsField({ attachments }: { attachments: Attachments }) {
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const { items, tooMany, add, remove, max } = attachments;
  return (
    <fieldset className="support-attachments" aria-describedby={hintId}>
      <legend>{text.label}</legend>
      <p id={hintId} className="ui-muted support-attachments__hint">{text.hint(max)}</p>
      <button type="button" className="ui-button ui-button--secondary" onClick={() => input.current?.click()}>
        {text.choose}
      </button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        data-testid="attachments-input"
        onChange={(event) => {
          add(Array.from(event.target.files ?? []));
          event.target.value = '';
        }}
      />
      {tooMany && <p role="alert" className="ui-inline-error">{text.tooMany(max)}</p>}
      {items.length > 0 && (
        <ul className="support-attachments__list" aria-label={text.list}>
          {items.map((item) => (
            <li key={item.key} className="support-attachments__item">
              <span className="support-attachments__name"><IconFile size={16} /> {item.file.name}</span>
              <span className="ui-muted">{formatBytes(item.file.size)}</span>
              {item.state === 'uploading' && (
                <progress value={item.progress} max={1} aria-label={text.uploading(Math.round(item.progress * 100))} />
              )}
              {item.state === 'done' && <span className="ui-chip ui-chip--success">{text.uploaded}</span>}
              <button type="button" className="ui-icon-button" aria-label={text.remove(item.file.name)} onClick={() => remove(item.key)}>
                <IconClose size={16} />
              </button>
              {item.state === 'failed' && <p role="alert" className="ui-inline-error support-attachments__error">{item.error}</p>}
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
