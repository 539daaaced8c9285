import type { CSSProperties } from 'react';
import type { Block, TemplateContent } from '#shared/documents/blocks.ts';
import { documents as text } from '../../i18n/es-documents.ts';
import { SIGNATURE_MARK, previewContent, splitMarks } from './preview.ts';

/** A filled text with its fields highlighted (a field shows its own name; the signature, 'Firma'). */
function Filled({ value }: { value: string }) {
  return (
    <>
      {splitMarks(value).map((part, index) =>
        part.field === undefined ? (
          <span key={index}>{part.text}</span>
        ) : (
          <mark key={index} className={`dc-preview__field${part.field === SIGNATURE_MARK ? ' dc-preview__field--signature' : ''}`}>
            {part.field === SIGNATURE_MARK ? text.preview.signature : part.field}
          </mark>
        ),
      )}
    </>
  );
}

function PreviewBlock({ block, accent }: { block: Block; accent: string }) {
  switch (block.type) {
    case 'heading': {
      const Heading = (['h2', 'h3', 'h4'] as const)[block.level - 1] ?? 'h2';
      return <Heading className={`dc-preview__heading dc-preview__heading--${block.level}`} style={{ color: accent }}><Filled value={block.text} /></Heading>;
    }
    case 'paragraph':
      return <p className="dc-preview__paragraph" style={{ textAlign: block.align ?? 'left' }}><Filled value={block.text} /></p>;
    case 'list': {
      const List = block.ordered ? 'ol' : 'ul';
      return <List className="dc-preview__list">{block.items.map((item, index) => <li key={index}><Filled value={item} /></li>)}</List>;
    }
    case 'table':
      return (
        <table className="dc-preview__table">
          <tbody>
            {block.rows.map((row, rowIndex) => (
              <tr key={rowIndex}>
                {row.map((cell, cellIndex) => {
                  const Cell = block.header && rowIndex === 0 ? 'th' : 'td';
                  return <Cell key={cellIndex}><Filled value={cell} /></Cell>;
                })}
              </tr>
            ))}
          </tbody>
        </table>
      );
    case 'pageBreak':
      return <div className="dc-preview__break" role="separator" aria-label={text.blockLabels.pageBreak}><span>{text.blockLabels.pageBreak}</span></div>;
    case 'image':
      return block.dataUrl === '' ? (
        <div className="dc-preview__image-empty">{text.preview.image}</div>
      ) : (
        <img className="dc-preview__image" src={block.dataUrl} alt={block.alt} style={{ width: `${block.width}%` }} />
      );
    case 'signature':
      return (
        <div className="dc-preview__signature">
          <div className="dc-preview__signature-box" aria-label={text.preview.signatureArea} role="img" />
          <p><Filled value={block.label} /></p>
        </div>
      );
  }
}

/**
 * The live preview: the template as an A4 page (its font, size and accent colour), drawn from the
 * same fillTemplate the generated PDF and .docx use, with sample values that show each field's name.
 */
export function TemplatePreview({ content, now = new Date() }: { content: TemplateContent; now?: Date }) {
  const filled = previewContent(content, now);
  const style: CSSProperties = {
    fontFamily: content.styles.font === 'serif' ? "'Times New Roman', Times, serif" : 'Arial, Helvetica, sans-serif',
    fontSize: `${content.styles.fontSize}pt`,
  };
  return (
    <article className="dc-preview" aria-label={text.preview.label}>
      <div className="dc-preview__page" style={style}>
        {filled.blocks.length === 0 ? (
          <p className="dc-preview__empty">{text.preview.empty}</p>
        ) : (
          filled.blocks.map((block, index) => <PreviewBlock key={index} block={block} accent={content.styles.accentColor} />)
        )}
      </div>
    </article>
  );
}
