import { useId, useState } from 'react';
import { documents as text } from '../../i18n/es-documents.ts';
import { fieldNameError } from './editorModel.ts';
import type { InsertKind } from './editorModel.ts';

export interface InsertFieldPanelProps {
  placeholders: readonly string[];
  takesSignature: boolean;
  readOnly: boolean;
  /** Inserts at the cursor of the last text touched; false when there is none yet. */
  onInsert: (kind: InsertKind, fieldName: string) => boolean;
}

/**
 * 'Insertar campo': a field by name, an IF around the selected text, the date and time stamps and the
 * signature, at the cursor; and the fields the template already has, listed as one-click insertions.
 */
export function InsertFieldPanel({ placeholders, takesSignature, readOnly, onInsert }: InsertFieldPanelProps) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const nameId = useId();
  const run = (kind: InsertKind, fieldName = name) => {
    if (kind === 'field' || kind === 'if') {
      const wrong = fieldNameError(fieldName);
      if (wrong) {
        setProblem(wrong === 'missing' ? text.editor.fieldNameMissing : text.editor.fieldNameBrackets);
        return;
      }
    }
    setProblem(onInsert(kind, fieldName) ? null : text.editor.insertNoTarget);
  };
  // A button press must not take the caret's place: the text keeps its selection for the insertion.
  const keepFocus = (event: { preventDefault: () => void }) => event.preventDefault();

  return (
    <section className="dc-insert" aria-labelledby={`${nameId}-title`}>
      <h3 id={`${nameId}-title`} className="dc-section-title">{text.editor.insertTitle}</h3>
      {!readOnly && (
        <>
          <p className="ui-muted dc-small">{text.editor.insertHint}</p>
          <div className="dc-insert__row">
            <label htmlFor={nameId} className="ui-visually-hidden">{text.editor.fieldName}</label>
            <input
              id={nameId}
              className="ui-input dc-insert__name"
              placeholder={text.editor.fieldNamePlaceholder}
              value={name}
              maxLength={80}
              aria-invalid={problem ? true : undefined}
              onChange={(event) => setName(event.target.value)}
              onKeyDown={(event) => {
                if (event.key === 'Enter') {
                  event.preventDefault();
                  run('field');
                }
              }}
            />
            <button type="button" className="ui-button ui-button--secondary" onMouseDown={keepFocus} onClick={() => run('field')}>{text.editor.insertField}</button>
            <button type="button" className="ui-button ui-button--secondary" onMouseDown={keepFocus} onClick={() => run('if')}>{text.editor.insertIf}</button>
          </div>
          <div className="dc-insert__row">
            <button type="button" className="ui-button ui-button--ghost" onMouseDown={keepFocus} onClick={() => run('DATESTAMP')}>{text.editor.insertDate}</button>
            <button type="button" className="ui-button ui-button--ghost" onMouseDown={keepFocus} onClick={() => run('DATETIMESTAMP')}>{text.editor.insertDateTime}</button>
            <button type="button" className="ui-button ui-button--ghost" onMouseDown={keepFocus} onClick={() => run('TIMESTAMP')}>{text.editor.insertTime}</button>
            <button type="button" className="ui-button ui-button--ghost" onMouseDown={keepFocus} onClick={() => run('SIGNATURE')}>{text.editor.insertSignature}</button>
          </div>
          {problem && <p className="ui-inline-error" role="alert">{problem}</p>}
        </>
      )}
      <h4 className="dc-subtitle">{text.editor.detectedTitle}</h4>
      {placeholders.length === 0 ? (
        <p className="ui-muted dc-small">{text.editor.detectedEmpty}</p>
      ) : (
        <ul className="dc-chips" aria-label={text.editor.detectedTitle}>
          {placeholders.map((key) => (
            <li key={key}>
              {readOnly ? (
                <span className="ui-chip">{key}</span>
              ) : (
                <button type="button" className="ui-chip dc-chip-button" aria-label={text.editor.detectedInsert(key)} onMouseDown={keepFocus} onClick={() => run('field', key)}>
                  {key}
                </button>
              )}
            </li>
          ))}
          {takesSignature && <li><span className="ui-chip ui-chip--notice">{text.editor.takesSignature}</span></li>}
        </ul>
      )}
    </section>
  );
}
