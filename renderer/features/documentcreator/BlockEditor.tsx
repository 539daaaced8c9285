import { useId, useState } from 'react';
import type { Dispatch, FocusEvent } from 'react';
import type { Block } from '#shared/documents/blocks.ts';
import { documents as text } from '../../i18n/es-documents.ts';
import { IconChevronDown, IconChevronUp, IconClose } from '../../ui/index.ts';
import { addColumn, addListItem, addRow, removeColumn, removeListItem, removeRow } from './editorModel.ts';
import type { EditorAction, EditorBlock, TextPath } from './editorModel.ts';
import { readImageFile } from './imageFile.ts';

type TextElement = HTMLInputElement | HTMLTextAreaElement;

export interface BlockEditorProps {
  entry: EditorBlock;
  index: number;
  count: number;
  readOnly: boolean;
  error?: string;
  dispatch: Dispatch<EditorAction>;
  /** A text of this block got focus: 'Insertar campo' writes there. */
  onTextFocus: (key: string, path: TextPath, element: TextElement) => void;
}

/** One block of the template: its own inputs, and move up/down and delete (buttons, so the keyboard does it all). */
export function BlockEditor({ entry, index, count, readOnly, error, dispatch, onTextFocus }: BlockEditorProps) {
  const { key, block } = entry;
  const headingId = useId();
  const errorId = `${headingId}-error`;
  const position = index + 1;
  const update = (next: Block) => dispatch({ type: 'update', key, block: next });
  const textProps = (path: TextPath, value: string, label: string) => ({
    value,
    'aria-label': label,
    readOnly,
    onFocus: (event: FocusEvent<TextElement>) => onTextFocus(key, path, event.currentTarget),
    onChange: (event: { currentTarget: TextElement }) => dispatch({ type: 'text', key, path, value: event.currentTarget.value }),
  });

  return (
    <section className={`dc-block dc-block--${block.type}${error ? ' dc-block--invalid' : ''}`} aria-labelledby={headingId} aria-describedby={error ? errorId : undefined} data-block-key={key}>
      <div className="dc-block__head">
        <h4 id={headingId} className="dc-block__title">{text.editor.blockHeading(position, text.blockLabels[block.type])}</h4>
        {!readOnly && (
          <div className="dc-block__tools">
            <button type="button" className="ui-icon-button" data-move="up" aria-label={text.editor.moveUp(position)} disabled={index === 0} onClick={() => dispatch({ type: 'move', key, by: -1 })}>
              <IconChevronUp size={18} />
            </button>
            <button type="button" className="ui-icon-button" data-move="down" aria-label={text.editor.moveDown(position)} disabled={index === count - 1} onClick={() => dispatch({ type: 'move', key, by: 1 })}>
              <IconChevronDown size={18} />
            </button>
            <button type="button" className="ui-icon-button" aria-label={text.editor.removeBlock(position)} onClick={() => dispatch({ type: 'remove', key })}>
              <IconClose size={18} />
            </button>
          </div>
        )}
      </div>
      <BlockFields block={block} readOnly={readOnly} update={update} textProps={textProps} />
      {error && <p id={errorId} className="ui-inline-error dc-block__error" role="alert">{error}</p>}
    </section>
  );
}

type TextProps = (path: TextPath, value: string, label: string) => {
  value: string;
  'aria-label': string;
  readOnly: boolean;
  onFocus: (event: FocusEvent<TextElement>) => void;
  onChange: (event: { currentTarget: TextElement }) => void;
};

function BlockFields({ block, readOnly, update, textProps }: { block: Block; readOnly: boolean; update: (block: Block) => void; textProps: TextProps }) {
  switch (block.type) {
    case 'heading':
      return (
        <div className="dc-block__row">
          <label className="dc-field dc-field--narrow">
            <span>{text.editor.level}</span>
            <select className="ui-input" value={block.level} disabled={readOnly} onChange={(event) => update({ ...block, level: Number(event.target.value) as 1 | 2 | 3 })}>
              {([1, 2, 3] as const).map((level) => <option key={level} value={level}>{text.editor.levels[level]}</option>)}
            </select>
          </label>
          <input className="ui-input dc-block__grow" {...textProps('text', block.text, text.editor.text)} placeholder={text.editor.text} maxLength={500} />
        </div>
      );
    case 'paragraph':
      return (
        <>
          <textarea className="ui-input dc-block__textarea" rows={4} {...textProps('text', block.text, text.editor.text)} placeholder={text.editor.text} />
          <label className="dc-field dc-field--inline">
            <span>{text.editor.align}</span>
            <select className="ui-input" value={block.align ?? 'left'} disabled={readOnly} onChange={(event) => update({ ...block, align: event.target.value as NonNullable<typeof block.align> })}>
              {(['left', 'center', 'right', 'justify'] as const).map((align) => <option key={align} value={align}>{text.editor.aligns[align]}</option>)}
            </select>
          </label>
        </>
      );
    case 'list':
      return (
        <>
          <label className="dc-check">
            <input type="checkbox" checked={block.ordered} disabled={readOnly} onChange={(event) => update({ ...block, ordered: event.target.checked })} />
            <span>{text.editor.ordered}</span>
          </label>
          <ol className="dc-block__items">
            {block.items.map((item, itemIndex) => (
              <li key={itemIndex} className="dc-block__row">
                <input className="ui-input dc-block__grow" {...textProps({ item: itemIndex }, item, text.editor.item(itemIndex + 1))} />
                {!readOnly && (
                  <button type="button" className="ui-icon-button" aria-label={text.editor.removeItem(itemIndex + 1)} onClick={() => update({ ...block, items: removeListItem(block.items, itemIndex) })}>
                    <IconClose size={16} />
                  </button>
                )}
              </li>
            ))}
          </ol>
          {!readOnly && <button type="button" className="ui-button ui-button--ghost" onClick={() => update({ ...block, items: addListItem(block.items) })}>{text.editor.addItem}</button>}
        </>
      );
    case 'table':
      return (
        <>
          <label className="dc-check">
            <input type="checkbox" checked={block.header} disabled={readOnly} onChange={(event) => update({ ...block, header: event.target.checked })} />
            <span>{text.editor.tableHeader}</span>
          </label>
          <div className="dc-block__table-wrap">
            <table className="dc-block__table">
              <tbody>
                {block.rows.map((row, rowIndex) => (
                  <tr key={rowIndex}>
                    {row.map((cell, column) => (
                      <td key={column}>
                        <input className="ui-input" {...textProps({ row: rowIndex, column }, cell, text.editor.cell(rowIndex + 1, column + 1))} />
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {!readOnly && (
            <div className="dc-block__buttons">
              <button type="button" className="ui-button ui-button--ghost" onClick={() => update({ ...block, rows: addRow(block.rows) })}>{text.editor.addRow}</button>
              <button type="button" className="ui-button ui-button--ghost" onClick={() => update({ ...block, rows: addColumn(block.rows) })}>{text.editor.addColumn}</button>
              <button type="button" className="ui-button ui-button--ghost" disabled={block.rows.length <= 1} onClick={() => update({ ...block, rows: removeRow(block.rows) })}>{text.editor.removeRow}</button>
              <button type="button" className="ui-button ui-button--ghost" disabled={(block.rows[0]?.length ?? 0) <= 1} onClick={() => update({ ...block, rows: removeColumn(block.rows) })}>{text.editor.removeColumn}</button>
            </div>
          )}
        </>
      );
    case 'pageBreak':
      return <p className="ui-muted">{text.editor.pageBreak}</p>;
    case 'image':
      return <ImageFields block={block} readOnly={readOnly} update={update} textProps={textProps} />;
    case 'signature':
      return <input className="ui-input" {...textProps('label', block.label, text.editor.signatureLabel)} placeholder={text.editor.signatureLabel} maxLength={200} />;
  }
}

function ImageFields({ block, readOnly, update, textProps }: { block: Extract<Block, { type: 'image' }>; readOnly: boolean; update: (block: Block) => void; textProps: TextProps }) {
  const [problem, setProblem] = useState<string | null>(null);
  const inputId = useId();
  const choose = async (file: File | undefined) => {
    if (!file) return;
    const read = await readImageFile(file);
    if ('problem' in read) {
      setProblem(read.problem === 'type' ? text.editor.imageWrongType : read.problem === 'size' ? text.editor.imageTooBig : text.editor.imageUnreadable);
      return;
    }
    setProblem(null);
    update({ ...block, dataUrl: read.dataUrl });
  };
  return (
    <div className="dc-block__image">
      {block.dataUrl !== '' && <img src={block.dataUrl} alt="" className="dc-block__thumb" />}
      {!readOnly && (
        <div className="dc-field">
          <span id={`${inputId}-hint`}>{text.editor.image}</span>
          <input
            id={inputId}
            type="file"
            accept="image/png,image/jpeg"
            className="ui-visually-hidden dc-file-input"
            aria-describedby={`${inputId}-hint`}
            aria-invalid={problem ? true : undefined}
            onChange={(event) => {
              void choose(event.currentTarget.files?.[0]);
              event.currentTarget.value = '';
            }}
          />
          <label htmlFor={inputId} className="ui-button ui-button--secondary dc-file-button">{block.dataUrl === '' ? text.editor.imageChoose : text.editor.imageChange}</label>
          {problem && <p className="ui-inline-error" role="alert">{problem}</p>}
        </div>
      )}
      <div className="dc-block__row">
        <label className="dc-field dc-field--narrow">
          <span>{text.editor.imageWidth}</span>
          <input className="ui-input" type="number" min={10} max={100} step={5} value={block.width} readOnly={readOnly}
            onChange={(event) => {
              const width = Math.round(Number(event.target.value));
              if (Number.isFinite(width)) update({ ...block, width: Math.min(100, Math.max(10, width)) });
            }}
          />
        </label>
        <input className="ui-input dc-block__grow" {...textProps('alt', block.alt, text.editor.imageAlt)} placeholder={text.editor.imageAlt} maxLength={200} />
      </div>
    </div>
  );
}
