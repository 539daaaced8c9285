/**
 * Document generation figures for `npm run bench` (issue 40 goal: a 20-page document renders in ≤ 2 s).
 * A 20-page template (a heading, paragraphs, a list and an 8-row table per page, page breaks, a drawn
 * signature at the end) is rendered: through the DocumentRenderer as the server does (a forked child
 * from its compiled bundle: start, fill, PDF and .docx, bytes back), and in this process alone (the
 * libraries' floor). Nothing passes or fails here; it prints the figures beside the goal.
 * `scripts/bench.ts` imports runDocumentsBench(); `npx tsx scripts/bench/documents.ts` runs it alone.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { deflateSync } from 'node:zlib';
import { DEFAULT_DOCUMENT_STYLES, fillTemplate, type Block, type TemplateContent } from '#shared/documents/blocks.ts';
import { renderDocx, renderPdf } from '../../server/modules/documents/render.ts';
import { DEFAULT_RENDERER_OPTIONS, DocumentRenderer, documentRenderCommand } from '../../server/modules/documents/renderer.ts';
import { buildChildBundles } from '../build-server.ts';
import { goalVerdict, median } from './stats.ts';

const PAGES = 20;
const RUNS = 5;
const GOAL_MS = 2_000;
const root = fileURLToPath(new URL('../..', import.meta.url));

const LOREM =
  'El trabajador prestará sus servicios en el centro de trabajo de la empresa, con la categoría profesional indicada, ' +
  'y percibirá la retribución fijada en el convenio colectivo de aplicación, que se abonará mensualmente mediante transferencia a la cuenta [[IBAN]]. ' +
  'La jornada será la establecida en el convenio, distribuida de lunes a viernes, con los descansos legalmente previstos.';

/** A 20-page template: each page a heading, three paragraphs, a list and a table, then a page break. */
export function twentyPageTemplate(): TemplateContent {
  const blocks: Block[] = [];
  for (let page = 1; page <= PAGES; page++) {
    blocks.push({ type: 'heading', level: 1, text: `Cláusula ${page}: condiciones de [[Empresa]]` });
    for (let paragraph = 0; paragraph < 3; paragraph++) blocks.push({ type: 'paragraph', text: LOREM, align: 'justify' });
    blocks.push({ type: 'list', ordered: page % 2 === 0, items: ['Salario base según convenio.', 'Plus de transporte.', 'Pagas extraordinarias prorrateadas.'] });
    blocks.push({ type: 'table', header: true, rows: [['Concepto', 'Importe', 'Periodicidad'], ...Array.from({ length: 7 }, (_, row) => [`Concepto ${row + 1} de [[Nombre]]`, `${(row + 1) * 100},00 €`, 'Mensual'])] });
    if (page < PAGES) blocks.push({ type: 'pageBreak' });
  }
  blocks.push({ type: 'signature', label: 'Firma de [[Nombre]]' });
  return { blocks, styles: DEFAULT_DOCUMENT_STYLES };
}

const VALUES = { Empresa: 'Talleres Núñez SL', Nombre: 'José Pérez García', IBAN: 'ES91 2100 0418 4502 0005 1332' };

/** A 400×160 signature-like PNG (grey strokes on transparent), made with zlib as a canvas would export it. */
export function signaturePngForBench(): Uint8Array {
  const width = 400;
  const height = 160;
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const onStroke = Math.abs(y - (80 + 40 * Math.sin(x / 25))) < 3;
      if (onStroke) raw.writeUInt32BE(0x202020ff, y * (width * 4 + 1) + 1 + x * 4);
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6, 0, 0, 0], 8);
  return new Uint8Array(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]));
}

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? (crc >>> 1) ^ 0xedb88320 : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

export async function runDocumentsBench(): Promise<string[]> {
  const content = twentyPageTemplate();
  const signature = signaturePngForBench();
  const lines: string[] = [];

  // The libraries alone, in this process (the first run warms the JIT and pdfkit's font metrics).
  const inProcess: number[] = [];
  let pdfPages = 0;
  let sizes = { pdf: 0, docx: 0 };
  for (let run = 0; run <= RUNS; run++) {
    const started = performance.now();
    const input = { content: fillTemplate(content, VALUES, new Date()), title: 'Bench', signaturePng: signature };
    const [pdf, docx] = await Promise.all([renderPdf(input), renderDocx(input)]);
    if (run > 0) inProcess.push(performance.now() - started);
    pdfPages = (Buffer.from(pdf).toString('latin1').match(/\/Type \/Page\b(?!s)/g) ?? []).length;
    sizes = { pdf: pdf.byteLength, docx: docx.byteLength };
  }

  // As the server does it: a forked child from its bundle (built here as `npm run build:server` builds it).
  await mkdir(join(root, 'dist', 'server'), { recursive: true });
  const bundles = await mkdtemp(join(root, 'dist', 'server', 'bench-documents-'));
  try {
    await buildChildBundles(bundles);
    const renderer = new DocumentRenderer(DEFAULT_RENDERER_OPTIONS, (memoryMb) => documentRenderCommand(memoryMb, pathToFileURL(join(root, 'server/modules/documents/renderer.ts')).href, bundles));
    const render = async () => {
      const started = performance.now();
      await renderer.render({ title: 'Bench', content, values: VALUES, now: new Date().toISOString(), signaturePng: signature });
      return performance.now() - started;
    };
    // The first document starts the process (loads pdfkit and docx); the next ones find it waiting.
    const cold = await render();
    const warm: number[] = [];
    for (let run = 0; run < RUNS; run++) warm.push(await render());
    renderer.stopAll();
    // As when the creator was opened first (the templates' list starts a process ahead of need).
    const ahead = new DocumentRenderer(renderer.options, (memoryMb) => documentRenderCommand(memoryMb, pathToFileURL(join(root, 'server/modules/documents/renderer.ts')).href, bundles));
    await ahead.warmUp();
    const warmedAhead = await (async () => {
      const started = performance.now();
      await ahead.render({ title: 'Bench', content, values: VALUES, now: new Date().toISOString(), signaturePng: signature });
      return performance.now() - started;
    })();
    ahead.stopAll();
    const warmMedian = median(warm) ?? Number.NaN;
    lines.push(`${PAGES}-page document (PDF ${pdfPages} pages, ${(sizes.pdf / 1024).toFixed(0)} KiB; .docx ${(sizes.docx / 1024).toFixed(0)} KiB), signature included, through the rendering process (fill + PDF + .docx + bytes back):`);
    lines.push(`  first, process started for it: ${cold.toFixed(0)} ms; first in a process started ahead (creator opened): ${warmedAhead.toFixed(0)} ms`);
    lines.push(`  process already up: median ${warmMedian.toFixed(0)} ms, worst ${Math.max(...warm).toFixed(0)} ms over ${RUNS} runs · goal ≤ ${GOAL_MS} ms: ${goalVerdict([{ ok: warmMedian <= GOAL_MS, what: `median ${warmMedian.toFixed(0)} ms` }, { ok: warmedAhead <= GOAL_MS, what: `first ahead ${warmedAhead.toFixed(0)} ms` }])}`);
    lines.push(`  in process (PDF + .docx only, warm): median ${(median(inProcess) ?? Number.NaN).toFixed(0)} ms over ${RUNS} runs`);
  } finally {
    await rm(bundles, { recursive: true, force: true });
  }
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of await runDocumentsBench()) console.log(line);
}
