import { z } from 'zod/mini';
import { renderDocumentTemplate, type TemplateValues } from './template.ts';

/**
 * A document template's content (issue 40): blocks in order, with the template's styles. Text of every
 * block may hold placeholders in double square brackets (template.ts). The same content is shown by
 * the live preview (HTML), and turned into a PDF and a .docx on the server (modules/documents/render).
 */

export const BLOCK_TYPES = ['heading', 'paragraph', 'list', 'table', 'pageBreak', 'image', 'signature'] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];

export const BLOCK_LABELS: Record<BlockType, string> = {
  heading: 'Título',
  paragraph: 'Párrafo',
  list: 'Lista',
  table: 'Tabla',
  pageBreak: 'Salto de página',
  image: 'Imagen',
  signature: 'Firma',
};

export const MAX_BLOCKS = 400;
export const MAX_BLOCK_TEXT = 20_000;
export const MAX_LIST_ITEMS = 200;
export const MAX_TABLE_ROWS = 200;
export const MAX_TABLE_COLUMNS = 10;
/**
 * An image block's PNG or JPEG as a data URL, at most this many characters (~140 KB of image: a logo or
 * a letterhead). Images travel inside the template's JSON, so they are kept small enough that three
 * templates saved at once never hold the server's event loop (issue 39's rule, server/http/big-bodies.test.ts).
 */
export const MAX_IMAGE_DATA_URL = 200_000;

const text = (max = MAX_BLOCK_TEXT) => z.string().check(z.maxLength(max, `Como mucho ${max.toLocaleString('es-ES')} caracteres`));
export const IMAGE_DATA_URL = /^data:image\/(png|jpeg);base64,[A-Za-z0-9+/]+={0,2}$/;

export const headingBlockSchema = z.object({ type: z.literal('heading'), level: z.union([z.literal(1), z.literal(2), z.literal(3)]), text: text(500) });
export const paragraphBlockSchema = z.object({ type: z.literal('paragraph'), text: text(), align: z.optional(z.enum(['left', 'center', 'right', 'justify'])) });
export const listBlockSchema = z.object({ type: z.literal('list'), ordered: z.boolean(), items: z.array(text(2_000)).check(z.maxLength(MAX_LIST_ITEMS)) });
export const tableBlockSchema = z.object({
  type: z.literal('table'),
  /** The first row is the table's header. */
  header: z.boolean(),
  rows: z.array(z.array(text(1_000)).check(z.minLength(1), z.maxLength(MAX_TABLE_COLUMNS))).check(z.minLength(1), z.maxLength(MAX_TABLE_ROWS)),
});
export const pageBreakBlockSchema = z.object({ type: z.literal('pageBreak') });
export const imageBlockSchema = z.object({
  type: z.literal('image'),
  dataUrl: z.string().check(z.maxLength(MAX_IMAGE_DATA_URL, 'La imagen es demasiado grande (máximo 140 KB)'), z.regex(IMAGE_DATA_URL, 'La imagen debe ser PNG o JPEG')),
  /** Width as a percentage of the text width. */
  width: z.number().check(z.int(), z.gte(10), z.lte(100)),
  alt: text(200),
});
/** Where the signer's drawn signature goes, with a caption under it ('Firma del trabajador'). */
export const signatureBlockSchema = z.object({ type: z.literal('signature'), label: text(200) });

export const blockSchema = z.discriminatedUnion('type', [headingBlockSchema, paragraphBlockSchema, listBlockSchema, tableBlockSchema, pageBreakBlockSchema, imageBlockSchema, signatureBlockSchema]);
export type Block = z.infer<typeof blockSchema>;

export const FONT_FAMILIES = ['sans', 'serif'] as const;
export const documentStylesSchema = z.object({
  font: z.enum(FONT_FAMILIES),
  /** Body text size in points. */
  fontSize: z.number().check(z.gte(8), z.lte(16)),
  /** Headings' colour. */
  accentColor: z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/, 'Elige un color como #1f4e79')),
});
export type DocumentStyles = z.infer<typeof documentStylesSchema>;

export const DEFAULT_DOCUMENT_STYLES: DocumentStyles = { font: 'sans', fontSize: 11, accentColor: '#1f4e79' };

/** Named style presets the creator offers (spec API 'styles'). */
export const STYLE_PRESETS: ReadonlyArray<{ key: string; name: string; styles: DocumentStyles }> = [
  { key: 'clasico', name: 'Clásico', styles: DEFAULT_DOCUMENT_STYLES },
  { key: 'formal', name: 'Formal', styles: { font: 'serif', fontSize: 11, accentColor: '#222222' } },
  { key: 'compacto', name: 'Compacto', styles: { font: 'sans', fontSize: 9, accentColor: '#2f6b3a' } },
];

export const templateContentSchema = z.object({
  blocks: z.array(blockSchema).check(z.maxLength(MAX_BLOCKS, `Una plantilla tiene como mucho ${MAX_BLOCKS} bloques`)),
  styles: documentStylesSchema,
});
export type TemplateContent = z.infer<typeof templateContentSchema>;

/** Placeholders every document has, filled by the renderer itself. */
export const STAMP_PLACEHOLDERS = ['TIMESTAMP', 'DATESTAMP', 'DATETIMESTAMP', 'SIGNATURE'] as const;

const PLACEHOLDER = /\[\[\s*(?:IF\s+)?([^[\]/]+?)\s*\]\]/g;

function blockTexts(block: Block): string[] {
  switch (block.type) {
    case 'heading':
    case 'paragraph':
      return [block.text];
    case 'list':
      return block.items;
    case 'table':
      return block.rows.flat();
    case 'image':
      return [block.alt];
    case 'signature':
      return [block.label];
    case 'pageBreak':
      return [];
  }
}

/**
 * The data placeholders of a template, in the order they first appear: what a form asks for. The
 * stamps and [[SIGNATURE]] are left out (the renderer fills them); an IF's key counts as a field.
 */
export function templatePlaceholders(content: Pick<TemplateContent, 'blocks'>): string[] {
  const keys = new Set<string>();
  for (const block of content.blocks) {
    for (const blockText of blockTexts(block)) {
      for (const match of blockText.matchAll(PLACEHOLDER)) {
        const key = match[1]?.trim() ?? '';
        if (key !== '' && !(STAMP_PLACEHOLDERS as readonly string[]).includes(key)) keys.add(key);
      }
    }
  }
  return [...keys];
}

/** Whether the template has a place for a drawn signature (a signature block or [[SIGNATURE]] in its text). */
export function templateTakesSignature(content: Pick<TemplateContent, 'blocks'>): boolean {
  return content.blocks.some((block) => block.type === 'signature' || blockTexts(block).some((blockText) => blockText.includes('[[SIGNATURE]]')));
}

/**
 * The content with every placeholder filled (template.ts rules), ready for a renderer: the preview's
 * HTML, the PDF and the .docx all draw this, so they say the same words.
 */
export function fillTemplate(content: TemplateContent, values: TemplateValues, now: Date): TemplateContent {
  const fill = (blockText: string) => renderDocumentTemplate(blockText, values, now);
  const blocks = content.blocks.map((block): Block => {
    switch (block.type) {
      case 'heading':
      case 'paragraph':
        return { ...block, text: fill(block.text) };
      case 'list':
        return { ...block, items: block.items.map(fill) };
      case 'table':
        return { ...block, rows: block.rows.map((row) => row.map(fill)) };
      case 'image':
        return block;
      case 'signature':
        return { ...block, label: fill(block.label) };
      case 'pageBreak':
        return block;
    }
  });
  return { blocks, styles: content.styles };
}
