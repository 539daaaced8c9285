import { createHash, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { registryDateOf } from '#shared/fie/registry-date.ts';
import { sampleEntry, type SampleMonth } from '#shared/fie/sample.ts';
import { encodeFieFile } from '#shared/fie/encode.ts';
import { decodeFieText } from '#shared/fie/text.ts';
import { toMadridParts } from '#shared/time/madrid.ts';
import { entryFacts } from '../modules/fie/entries.ts';
import { DocumentEntryWriter, insertDocument } from '../modules/fie/store.ts';
import type { Database } from './schema.ts';

/**
 * The demo account's FIE files: three SILTRA files of the last weeks, decoded and stored as an upload
 * stores them, so /fie has documents to open, filter and export right after the seed. Some entries are
 * already in A3 and one was refused by it, so every A3 state shows. The workers and companies are the
 * generated ones of shared/fie/sample.ts ('EMPRESA NUMERO n SL'): plainly not real people. They start at
 * entry 1: entry 0 is the generator's degenerate worker (DNI 00000000T) and company (CCC 01/0000000/00).
 */

const DAY_MS = 86_400_000;

interface DemoFieFile {
  daysAgo: number;
  /** Entries of the generator (shared/fie/sample.ts), from `first` on. */
  first: number;
  count: number;
}

export const DEMO_FIE_FILES: readonly DemoFieFile[] = [
  { daysAgo: 16, first: 1, count: 14 },
  { daysAgo: 9, first: 101, count: 22 },
  { daysAgo: 2, first: 201, count: 9 },
];

export const DEMO_FIE_A3_REFUSAL = 'A3 no encuentra al trabajador en la empresa: revisa su NIF en A3 antes de volver a sincronizar.';

const pad = (value: number) => String(value).padStart(2, '0');

export async function seedDemoFie(db: Kysely<Database>, owner: { userId: string; groupId: string }, now: Date): Promise<void> {
  for (const [index, file] of DEMO_FIE_FILES.entries()) {
    const day = toMadridParts(new Date(now.getTime() - file.daysAgo * DAY_MS));
    // The leaves began the month before the file (the generator dates them in `start`).
    const start: SampleMonth = day.month === 1 ? { year: day.year - 1, month: 12 } : { year: day.year, month: day.month - 1 };
    const fileDate = `${day.year}${pad(day.month)}${pad(day.day)}`;
    const text = encodeFieFile({ date: fileDate, entries: Array.from({ length: file.count }, (_, offset) => sampleEntry(file.first + offset, start)) });
    const fieldSets = decodeFieText(text).entries.map((entry) => entry.fields);
    const id = randomUUID();
    const createdAt = new Date(now.getTime() - file.daysAgo * DAY_MS).toISOString();
    await db.transaction().execute(async (trx) => {
      await insertDocument(trx, {
        id,
        group_id: owner.groupId,
        content_hash: createHash('sha256').update(text, 'latin1').digest('hex'),
        file_name: `FIE_${fileDate}.txt`,
        source: 'siltra',
        version: 'FIE4',
        registry_date: registryDateOf(fieldSets),
        date: `${day.year}-${pad(day.month)}-${pad(day.day)}`,
        entry_count: fieldSets.length,
        created_by: owner.userId,
        created_at: createdAt,
        importing: 0,
      });
      await new DocumentEntryWriter(trx, owner.groupId, id, createdAt).write(fieldSets.map(entryFacts));
    });
    // The oldest file is in A3 but for one worker A3 refused; the others wait for a sync.
    if (index === 0) {
      const entries = await db.selectFrom('fie_document_entries').select('entry_id').where('document_id', '=', id).orderBy('position').execute();
      const ids = entries.map((entry) => entry.entry_id);
      const [refused, ...synced] = ids;
      if (synced.length > 0) {
        await db.updateTable('fie_entries').set({ a3_state: 'synced', a3_synced_at: createdAt }).where('id', 'in', synced).where('a3_state', '=', 'pending').execute();
      }
      if (refused !== undefined) {
        await db.updateTable('fie_entries').set({ a3_state: 'error', a3_error: DEMO_FIE_A3_REFUSAL }).where('id', '=', refused).where('a3_state', '=', 'pending').execute();
      }
    }
  }
}
