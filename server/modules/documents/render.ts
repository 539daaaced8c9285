/**
 * A filled template (shared/documents/blocks.ts fillTemplate) as a PDF (pdfkit) and a .docx (docx):
 * the same blocks, styles and signature in both. Runs in the rendering child process only
 * (document-render-child.ts), never on the server's event loop.
 */
import {
  AlignmentType, BorderStyle, Document, Footer, ImageRun, LevelFormat, Packer, PageBreak, PageNumber, Paragraph, Table, TableCell, TableRow, TextRun, WidthType,
  type ParagraphChild,
} from 'docx';
import PDFDocument from 'pdfkit';
import type { Block, TemplateContent } from '#shared/documents/blocks.ts';

/** A4 in PDF points, and the margins of the text (2.1 cm at the sides, 2.5 cm above, 2.8 cm below: the footer's room). */
const A4 = { width: 595.28, height: 841.89 };
const MARGINS = { top: 71, bottom: 79, left: 60, right: 60 };
const TEXT_WIDTH = A4.width - MARGINS.left - MARGINS.right;
/** Points to twentieths of a point (docx's page measures). */
const twips = (points: number) => Math.round(points * 20);
/** Points to the pixels (96 to the inch) docx sizes images in. */
const pixels = (points: number) => Math.round((points * 96) / 72);

/** The drawn signature's box, in points. */
const SIGNATURE_BOX = { width: 200, height: 80 };
const HEADING_SCALE: Record<1 | 2 | 3, number> = { 1: 1.8, 2: 1.4, 3: 1.15 };

export interface RenderInput {
  /** The content with its placeholders already filled. */
  content: TemplateContent;
  /** The document's name, the PDF's title. */
  title: string;
  signaturePng: Uint8Array | null;
}

interface DecodedImage {
  data: Buffer;
  type: 'png' | 'jpg';
  /** Its own size in pixels. */
  width: number;
  height: number;
}

/** A PNG or JPEG data URL's bytes and size (pdfkit reads the header; a broken image throws a Spanish error). */
function decodeImage(dataUrl: string, what: string): DecodedImage {
  const match = /^data:image\/(png|jpeg);base64,(.*)$/s.exec(dataUrl);
  if (!match) throw new Error(`${what} no es una imagen PNG o JPEG`);
  return imageOf(Buffer.from(match[2] ?? '', 'base64'), match[1] === 'png' ? 'png' : 'jpg', what);
}

function imageOf(data: Buffer, type: 'png' | 'jpg', what: string): DecodedImage {
  try {
    // pdfkit's own image reader (not in its types): the size from the file's header.
    const probe = new PDFDocument({ autoFirstPage: false }) as unknown as { openImage(src: Buffer): { width: number; height: number } };
    const opened = probe.openImage(data);
    return { data, type, width: opened.width, height: opened.height };
  } catch {
    throw new Error(`${what} está dañada o no es una imagen válida`);
  }
}

/** The size of an image `width` points wide at most, no taller than `maxHeight`, keeping its shape. */
function fitted(image: DecodedImage, width: number, maxHeight: number): { width: number; height: number } {
  const scale = Math.min(width / image.width, maxHeight / image.height);
  return { width: image.width * scale, height: image.height * scale };
}

const fontsOf = (content: TemplateContent) =>
  content.styles.font === 'serif' ? { regular: 'Times-Roman', bold: 'Times-Bold', docx: 'Times New Roman' } : { regular: 'Helvetica', bold: 'Helvetica-Bold', docx: 'Arial' };

/** Every row as wide as the widest (both libraries want a rectangle). */
function squared(rows: readonly (readonly string[])[]): string[][] {
  const columns = Math.max(...rows.map((row) => row.length));
  return rows.map((row) => [...row, ...Array<string>(columns - row.length).fill('')]);
}

/** What the PDF's standard fonts can draw (Windows-1252): Latin-1 and a few typographic signs. */
const WIN_ANSI_EXTRA = new Set('€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ');
const drawable = (char: string) => {
  const code = char.codePointAt(0) ?? 0;
  return char === '\n' || char === '\t' || (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(char);
};

/**
 * Text the standard fonts can draw: a letter they lack loses its accent ('ł' and 'ż' as 'l' and 'z'),
 * anything else becomes '?'. The .docx keeps the text exactly (Word's fonts cover it).
 */
export function pdfText(text: string): string {
  let out = '';
  for (const char of text) {
    if (drawable(char)) {
      out += char;
      continue;
    }
    const base = char.normalize('NFD').replace(/\p{M}/gu, '');
    out += base !== '' && [...base].every(drawable) ? base : (PLAIN_LETTERS[char] ?? '?');
  }
  return out;
}

/** Letters NFD does not take apart. */
const PLAIN_LETTERS: Record<string, string> = { 'Ł': 'L', 'ł': 'l', 'Đ': 'D', 'đ': 'd', 'Ħ': 'H', 'ħ': 'h', 'ı': 'i', 'Ŀ': 'L', 'ŀ': 'l', 'Ŧ': 'T', 'ŧ': 't', 'ẞ': 'SS' };

function drawableContent(content: TemplateContent): TemplateContent {
  const blocks = content.blocks.map((block): Block => {
    switch (block.type) {
      case 'heading':
      case 'paragraph':
        return { ...block, text: pdfText(block.text) };
      case 'list':
        return { ...block, items: block.items.map(pdfText) };
      case 'table':
        return { ...block, rows: block.rows.map((row) => row.map(pdfText)) };
      case 'signature':
        return { ...block, label: pdfText(block.label) };
      case 'image':
      case 'pageBreak':
        return block;
    }
  });
  return { ...content, blocks };
}

/** The PDF: A4, the blocks in order, 'Página X de Y' at the foot of every page. */
export function renderPdf(input: RenderInput): Promise<Uint8Array> {
  const { signaturePng } = input;
  const content = drawableContent(input.content);
  const fonts = fontsOf(content);
  const { fontSize, accentColor } = content.styles;
  const doc = new PDFDocument({ size: 'A4', margins: MARGINS, bufferPages: true, info: { Title: input.title, Producer: 'AutoAsesor', Creator: 'AutoAsesor' } });
  const chunks: Buffer[] = [];
  const done = new Promise<Uint8Array>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(new Uint8Array(Buffer.concat(chunks))));
    doc.on('error', reject);
  });
  const signature = signaturePng ? imageOf(Buffer.from(signaturePng), 'png', 'La firma') : null;
  const bottom = () => A4.height - MARGINS.bottom;
  /** A new page when `height` points do not fit below the cursor (and the page is not blank already). */
  const room = (height: number) => {
    if (doc.y + height > bottom() && doc.y > MARGINS.top + 1) doc.addPage();
  };
  const body = () => doc.font(fonts.regular).fontSize(fontSize).fillColor('#000000');
  const gap = () => (doc.y += fontSize * 0.6);

  /**
   * A table as wide as the text, its columns alike, each row as tall as its tallest cell; a row that does
   * not fit starts a new page, where the header row is drawn again.
   */
  const drawTable = (blockRows: readonly (readonly string[])[], header: boolean) => {
    const rows = squared(blockRows);
    const columns = rows[0]?.length ?? 1;
    const width = TEXT_WIDTH / columns;
    const pad = { x: 5, y: 3 };
    const heightOf = (row: readonly string[], bold: boolean) => {
      doc.font(bold ? fonts.bold : fonts.regular).fontSize(fontSize);
      // A row is at most a page tall (a longer cell is cut there).
      return Math.min(Math.max(...row.map((cell) => doc.heightOfString(cell || ' ', { width: width - pad.x * 2 }))) + pad.y * 2, bottom() - MARGINS.top);
    };
    const drawRow = (row: readonly string[], bold: boolean, height: number) => {
      const top = doc.y;
      if (bold) doc.rect(MARGINS.left, top, TEXT_WIDTH, height).fillColor('#eeeeee').fill();
      doc.lineWidth(0.5).strokeColor('#888888');
      row.forEach((cell, column) => {
        const left = MARGINS.left + column * width;
        doc.rect(left, top, width, height).stroke();
        doc.font(bold ? fonts.bold : fonts.regular).fontSize(fontSize).fillColor('#000000');
        doc.text(cell, left + pad.x, top + pad.y, { width: width - pad.x * 2, height: height - pad.y * 2 });
      });
      doc.x = MARGINS.left;
      doc.y = top + height;
    };
    const headerRow = header ? rows[0] : undefined;
    const headerHeight = headerRow ? heightOf(headerRow, true) : 0;
    rows.forEach((row, index) => {
      const isHeader = header && index === 0;
      const height = heightOf(row, isHeader);
      // The header never stands alone at the foot of a page.
      room(height + (isHeader ? heightOf(rows[1] ?? [], false) : 0));
      if (headerRow && !isHeader && doc.y <= MARGINS.top + 1) {
        drawRow(headerRow, true, headerHeight);
      }
      drawRow(row, isHeader, height);
    });
    body();
  };

  const drawBlock = (block: Block) => {
    doc.x = MARGINS.left;
    switch (block.type) {
      case 'heading': {
        const size = fontSize * HEADING_SCALE[block.level];
        doc.font(fonts.bold).fontSize(size).fillColor(accentColor);
        // A heading is never the last line of a page.
        room(doc.heightOfString(block.text || ' ', { width: TEXT_WIDTH }) + fontSize * 2.5);
        doc.text(block.text, { width: TEXT_WIDTH });
        doc.y += size * 0.35;
        return;
      }
      case 'paragraph':
        body().text(block.text, { width: TEXT_WIDTH, align: block.align ?? 'left' });
        gap();
        return;
      case 'list':
        if (block.items.length === 0) return;
        body();
        block.items.forEach((item, index) => {
          // Each item's lines hang beside its marker ('1.' or a bullet).
          const indent = fontSize * 1.6;
          const textLeft = MARGINS.left + indent + fontSize * 1.4;
          const width = MARGINS.left + TEXT_WIDTH - textLeft;
          room(doc.heightOfString(item || ' ', { width }));
          const top = doc.y;
          if (block.ordered) doc.text(`${index + 1}.`, MARGINS.left + indent - fontSize * 0.4, top, { width: fontSize * 1.6, lineBreak: false });
          else doc.circle(MARGINS.left + indent + fontSize * 0.3, top + fontSize * 0.55, fontSize * 0.18).fill('#000000');
          doc.text(item, textLeft, top, { width });
          doc.y += fontSize * 0.2;
        });
        doc.x = MARGINS.left;
        gap();
        return;
      case 'table':
        drawTable(block.rows, block.header);
        gap();
        return;
      case 'pageBreak':
        doc.addPage();
        return;
      case 'image': {
        const image = decodeImage(block.dataUrl, 'Una imagen de la plantilla');
        const size = fitted(image, (TEXT_WIDTH * block.width) / 100, bottom() - MARGINS.top);
        room(size.height);
        doc.image(image.data, MARGINS.left, doc.y, { width: size.width, height: size.height });
        doc.y += size.height;
        gap();
        return;
      }
      case 'signature': {
        const labelHeight = fontSize * 1.5;
        room(SIGNATURE_BOX.height + labelHeight + fontSize);
        doc.y += fontSize * 0.5;
        if (signature) {
          const size = fitted(signature, SIGNATURE_BOX.width, SIGNATURE_BOX.height);
          doc.image(signature.data, MARGINS.left, doc.y + SIGNATURE_BOX.height - size.height, { width: size.width, height: size.height });
        }
        doc.y += SIGNATURE_BOX.height;
        doc.moveTo(MARGINS.left, doc.y).lineTo(MARGINS.left + SIGNATURE_BOX.width, doc.y).lineWidth(0.7).strokeColor('#444444').stroke();
        doc.y += 4;
        doc.x = MARGINS.left;
        body().fontSize(fontSize * 0.9).text(block.label, { width: SIGNATURE_BOX.width + 100 });
        gap();
        return;
      }
    }
  };

  for (const block of content.blocks) drawBlock(block);

  const { start, count } = doc.bufferedPageRange();
  for (let index = start; index < start + count; index++) {
    doc.switchToPage(index);
    // Writing below the bottom margin would start a new page.
    doc.page.margins.bottom = 0;
    doc.font(fonts.regular).fontSize(8.5).fillColor('#666666');
    doc.text(`Página ${index + 1} de ${count}`, MARGINS.left, A4.height - MARGINS.bottom / 2 - 5, { width: TEXT_WIDTH, align: 'center', lineBreak: false });
  }
  doc.end();
  return done;
}

/** The text's line breaks as docx breaks. */
function runs(text: string, options: { bold?: boolean; color?: string; size?: number } = {}): TextRun[] {
  return text.split('\n').map((line, index) => new TextRun({ text: line, ...(index > 0 && { break: 1 }), ...options }));
}

const DOCX_ALIGN = { left: AlignmentType.LEFT, center: AlignmentType.CENTER, right: AlignmentType.RIGHT, justify: AlignmentType.JUSTIFIED } as const;

/** The .docx: the same blocks, Word's own headings, lists, tables and page numbers. */
export async function renderDocx(input: RenderInput): Promise<Uint8Array> {
  const { content, signaturePng } = input;
  const fonts = fontsOf(content);
  const { fontSize } = content.styles;
  const accent = content.styles.accentColor.slice(1);
  const signature = signaturePng ? imageOf(Buffer.from(signaturePng), 'png', 'La firma') : null;
  const children: (Paragraph | Table)[] = [];
  let orderedLists = 0;
  const spacing = { after: twips(fontSize * 0.6) };

  for (const block of content.blocks) {
    switch (block.type) {
      case 'heading':
        children.push(new Paragraph({ keepNext: true, spacing: { before: twips(fontSize * 0.4), after: twips(fontSize * 0.35) }, children: runs(block.text, { bold: true, color: accent, size: Math.round(fontSize * HEADING_SCALE[block.level] * 2) }) }));
        break;
      case 'paragraph':
        children.push(new Paragraph({ alignment: DOCX_ALIGN[block.align ?? 'left'], spacing, children: runs(block.text) }));
        break;
      case 'list': {
        orderedLists += block.ordered ? 1 : 0;
        const instance = orderedLists;
        block.items.forEach((item, index) =>
          children.push(
            new Paragraph({
              ...(block.ordered ? { numbering: { reference: 'ordered', level: 0, instance } } : { bullet: { level: 0 } }),
              ...(index === block.items.length - 1 && { spacing }),
              children: runs(item),
            }),
          ),
        );
        break;
      }
      case 'table': {
        const border = { style: BorderStyle.SINGLE, size: 4, color: '888888' };
        children.push(
          new Table({
            width: { size: 100, type: WidthType.PERCENTAGE },
            borders: { top: border, bottom: border, left: border, right: border, insideHorizontal: border, insideVertical: border },
            rows: squared(block.rows).map((row, index) => {
              const header = block.header && index === 0;
              return new TableRow({
                tableHeader: header,
                cantSplit: true,
                children: row.map((cell) => new TableCell({ ...(header && { shading: { fill: 'EEEEEE' } }), margins: { top: 40, bottom: 40, left: 90, right: 90 }, children: [new Paragraph({ children: runs(cell, { bold: header }) })] })),
              });
            }),
          }),
        );
        children.push(new Paragraph({ spacing, children: [] }));
        break;
      }
      case 'pageBreak':
        children.push(new Paragraph({ children: [new PageBreak()] }));
        break;
      case 'image': {
        const image = decodeImage(block.dataUrl, 'Una imagen de la plantilla');
        const size = fitted(image, (TEXT_WIDTH * block.width) / 100, A4.height - MARGINS.top - MARGINS.bottom);
        children.push(
          new Paragraph({
            spacing,
            children: [new ImageRun({ type: image.type, data: image.data, transformation: { width: pixels(size.width), height: pixels(size.height) }, altText: { name: block.alt || 'Imagen', description: block.alt, title: block.alt } })],
          }),
        );
        break;
      }
      case 'signature': {
        const picture: ParagraphChild[] = [];
        if (signature) {
          const size = fitted(signature, SIGNATURE_BOX.width, SIGNATURE_BOX.height);
          picture.push(new ImageRun({ type: 'png', data: signature.data, transformation: { width: pixels(size.width), height: pixels(size.height) }, altText: { name: 'Firma', description: 'Firma', title: 'Firma' } }));
        }
        children.push(
          new Paragraph({
            keepNext: true,
            keepLines: true,
            // Room for a hand signature when none was drawn.
            spacing: { before: twips(signature ? fontSize : SIGNATURE_BOX.height) },
            border: { bottom: { style: BorderStyle.SINGLE, size: 6, color: '444444', space: 1 } },
            indent: { right: twips(TEXT_WIDTH - SIGNATURE_BOX.width) },
            children: picture,
          }),
        );
        children.push(new Paragraph({ spacing, children: runs(block.label, { size: Math.round(fontSize * 0.9 * 2) }) }));
        break;
      }
    }
  }

  const document = new Document({
    title: input.title,
    creator: 'AutoAsesor',
    styles: { default: { document: { run: { font: fonts.docx, size: Math.round(fontSize * 2) } } } },
    numbering: {
      config: [
        {
          reference: 'ordered',
          levels: [{ level: 0, format: LevelFormat.DECIMAL, text: '%1.', alignment: AlignmentType.START, style: { paragraph: { indent: { left: 720, hanging: 360 } } } }],
        },
      ],
    },
    sections: [
      {
        properties: {
          page: {
            size: { width: twips(A4.width), height: twips(A4.height) },
            margin: { top: twips(MARGINS.top), bottom: twips(MARGINS.bottom), left: twips(MARGINS.left), right: twips(MARGINS.right), footer: twips(MARGINS.bottom / 2 - 5) },
          },
        },
        footers: {
          default: new Footer({
            children: [
              new Paragraph({ alignment: AlignmentType.CENTER, children: [new TextRun({ children: ['Página ', PageNumber.CURRENT, ' de ', PageNumber.TOTAL_PAGES], size: 17, color: '666666' })] }),
            ],
          }),
        },
        children,
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}
