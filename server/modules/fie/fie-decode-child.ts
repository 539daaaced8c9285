/**
 * The child process that decodes one uploaded FIE (forked by decoder.ts with a heap and a time limit):
 * a text FIE is streamed from its file through shared/fie's FieTextStream (each entry read through its slot
 * view and turned into its row's columns at once: no fields record is built), an .xlsx row by row through
 * streamFieXlsx (its compressed bytes held: a zip's directory is at its end), an .xls whole by
 * decodeFieSpreadsheet (SheetJS; the upload caps it). Entries go to the
 * parent in batches, each waiting for the parent's 'continue'. A malformed file that blows the heap or
 * hangs ends this process only, never the server. Bundled on its own as dist/server/fie-decode-child.js
 * (scripts/build-server.ts).
 */
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { decodeFieSpreadsheet } from '#shared/fie/spreadsheet.ts';
import { FIE_READ_BYTES, FieTextStream } from '#shared/fie/stream.ts';
import { streamFieXlsx } from '#shared/fie/xlsx-stream.ts';
import { parentChannel } from '../../child-channel.ts';
import { BATCHES_IN_FLIGHT, type FieDecodeJob, type FieDecodeMessage, type FieDecodeReply } from './decode-protocol.ts';
import { entryFactsOf, type EntryFacts } from './entries.ts';

const post = parentChannel<FieDecodeMessage>('fie-decode-child');

let unanswered = 0;
const waiting: (() => void)[] = [];
process.on('message', (message: FieDecodeReply) => {
  if (message.type !== 'continue') return;
  unanswered -= 1;
  waiting.shift()?.();
});

/** Sends one batch of row columns, once fewer than BATCHES_IN_FLIGHT wait to be stored. */
async function send(entries: EntryFacts[]): Promise<void> {
  while (unanswered >= BATCHES_IN_FLIGHT) await new Promise<void>((resolve) => waiting.push(resolve));
  unanswered += 1;
  await post({ type: 'batch', entries });
}

async function sendAll(entries: EntryFacts[], batchSize: number): Promise<void> {
  for (let start = 0; start < entries.length; start += batchSize) await send(entries.slice(start, start + batchSize));
}

async function decodeText(job: FieDecodeJob): Promise<FieDecodeMessage> {
  let pending: EntryFacts[] = [];
  // The slot view is valid during the call only: the row's columns are taken from it then.
  const decoder = new FieTextStream({ slots: (entry) => void pending.push(entryFactsOf(entry)) });
  const stream = createReadStream(job.path, { highWaterMark: FIE_READ_BYTES });
  try {
    for await (const chunk of stream) {
      decoder.writeLatin1(chunk as Buffer);
      if (decoder.ignored) break;
      if (pending.length >= job.batchSize) {
        const ready = pending;
        pending = [];
        await sendAll(ready, job.batchSize);
      }
    }
  } finally {
    stream.destroy();
  }
  const summary = decoder.end();
  if (!summary.ignored) await sendAll(pending, job.batchSize);
  return { type: 'done', ignored: summary.ignored, reason: summary.reason ?? null, version: summary.version, registryDate: summary.registryDate, entries: summary.entries };
}

/**
 * An .xlsx row by row (streamFieXlsx), its entries sent in batches as they come: the batches stored are
 * waited for after each 64 KiB of the sheet, so entries never pile up. Other workbooks (.xls) whole.
 */
async function decodeExcel(job: FieDecodeJob): Promise<FieDecodeMessage> {
  const bytes = new Uint8Array(await readFile(job.path));
  let pending: EntryFacts[] = [];
  const summary = await streamFieXlsx(
    bytes,
    { entry: (entry) => void pending.push(entryFactsOf(entry)), diagnostic() {} },
    {
      drain: async () => {
        if (pending.length < job.batchSize) return;
        const ready = pending;
        pending = [];
        await sendAll(ready, job.batchSize);
      },
    },
  );
  if (summary !== null) {
    if (!summary.ignored) await sendAll(pending, job.batchSize);
    return { type: 'done', ignored: summary.ignored, reason: summary.reason ?? null, version: null, registryDate: summary.registryDate, entries: summary.entries };
  }
  const document = decodeFieSpreadsheet(bytes);
  if (!document.ignored) await sendAll(document.entries.map(entryFactsOf), job.batchSize);
  return { type: 'done', ignored: document.ignored, reason: document.reason ?? null, version: null, registryDate: document.registryDate, entries: document.entries.length };
}

const job = JSON.parse(process.argv[2] ?? '{}') as FieDecodeJob;
try {
  await post(job.format === 'excel' ? await decodeExcel(job) : await decodeText(job));
} catch (error) {
  await post({ type: 'failed', reason: `No se ha podido leer el archivo (${error instanceof Error ? error.message : String(error)})` });
}
process.exit(0);
