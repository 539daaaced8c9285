/**
 * The child process that renders generated documents (forked by renderer.ts with a heap limit; the
 * parent kills it past its time limit): for each RenderJob it fills the template's placeholders, draws
 * the PDF and the .docx and sends both back as bytes. It stays for the next job (its libraries loaded,
 * its code warm) until the parent lets it go. A template that blows the heap or hangs ends this process
 * only, never the server. Bundled on its own as dist/server/document-render-child.js (scripts/build-server.ts).
 */
import { DEFAULT_DOCUMENT_STYLES, fillTemplate, type TemplateContent } from '#shared/documents/blocks.ts';
import { parentChannel } from '../../child-channel.ts';
import { renderDocx, renderPdf } from './render.ts';
import type { RenderJob, RenderMessage } from './render-protocol.ts';

const post = parentChannel<RenderMessage>('document-render-child');

async function render(job: RenderJob): Promise<RenderMessage> {
  // A document is final: a [[SIGNATURE]] with nothing to put there is left blank, not shown as written.
  const content = fillTemplate(job.content, { SIGNATURE: '', ...job.values }, new Date(job.now));
  const input = { content, title: job.title, signaturePng: job.signaturePng };
  const pdf = await renderPdf(input);
  const docx = await renderDocx(input);
  return { type: 'done', jobId: job.jobId, pdf, docx };
}

/** A few pages of every kind of block: rendered once at start, so the first real document finds the code compiled. */
const WARM_UP: TemplateContent = {
  styles: DEFAULT_DOCUMENT_STYLES,
  blocks: Array.from({ length: 3 }, () => [
    { type: 'heading' as const, level: 1 as const, text: 'Título de prueba [[Nombre]]' },
    ...Array.from({ length: 4 }, () => ({ type: 'paragraph' as const, align: 'justify' as const, text: 'Texto de prueba del documento, con [[Nombre]] y la fecha [[DATESTAMP]], que ocupa varias líneas al ajustarse al ancho de la página. '.repeat(3) })),
    { type: 'list' as const, ordered: true, items: ['Uno', 'Dos', 'Tres'] },
    { type: 'table' as const, header: true, rows: [['A', 'B', 'C'], ...Array.from({ length: 6 }, () => ['Concepto', '100,00 €', 'Mensual'])] },
    { type: 'signature' as const, label: 'Firma' },
    { type: 'pageBreak' as const },
  ]).flat(),
};

// One job at a time: the parent sends the next once this one is answered.
process.on('message', (job: RenderJob) => {
  if (job.type !== 'render') return;
  void (async () => {
    try {
      await post(await render(job));
    } catch (error) {
      await post({ type: 'failed', jobId: job.jobId, reason: `No se ha podido generar el documento: ${error instanceof Error ? error.message : String(error)}` });
    }
  })();
});

// Started ahead of need (renderer.ts warmUp): warmed on the sample while nobody waits. Started for a document: straight to it.
try {
  if (process.argv.includes('--warm-up')) await render({ type: 'render', jobId: 0, title: 'Prueba', content: WARM_UP, values: { Nombre: 'Prueba' }, now: new Date().toISOString(), signaturePng: null });
} finally {
  await post({ type: 'ready' });
}
