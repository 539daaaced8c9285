/** Issue 43 (4): a baja confirmed again in a later FIE is one parte, in its newest state, with each confirmation's number and date. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import type { Kysely } from 'kysely';
import { z } from 'zod/mini';
import { fiePaths, fieDocumentDetailSchema, reconciliationRowSchema } from '#shared/api/fie.ts';
import { pathFor } from '#shared/api/flows.ts';
import { encodeFieFile } from '#shared/fie/encode.ts';
import { connectDatabase } from '../../db/connect.ts';
import * as partesMigration from '../../db/migrations/0024-fie-partes.ts';
import * as sortNamesMigration from '../../db/migrations/0024-fie-sort-names.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { NOW, angelCit, fileA, fileB, list, upload } from './test-support.ts';

/** The INSS confirms Ángel's leave again a week later: a new number and date, every other fact the same. */
const angelCit2 = { ...angelCit, 1520: '20250126', 1530: '02' };
const fileC = encodeFieFile({ date: '20250127', entries: [angelCit2] });
const ANGEL = '22222222J';

let server: TestServer;
let ana: CookieJar;
let db: Kysely<Database> | undefined;
beforeEach(async () => {
  server = await startTestServer({ now: () => NOW, scheduleRunnerIntervalMs: 0, fileRetention: { sweepIntervalMs: 0 } });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
});
afterEach(async () => {
  await db?.destroy();
  db = undefined;
  await server.close();
});

/** Every listed entry of Ángel's, as [file, type, confirmations]. */
async function angelRows() {
  return (await list(ana)).flatMap((document) =>
    document.entries.filter((entry) => entry.nif === ANGEL).map((entry) => [document.fileName, entry.typeLabel, entry.confirmations, entry._id] as const),
  );
}

async function documentId(fileName: string): Promise<string> {
  const found = (await list(ana)).find((document) => document.fileName === fileName);
  if (!found) throw new Error(`${fileName} is not listed`);
  return found._id;
}

/** The ids of Ángel's entries in a document, whatever the list shows. */
async function angelIdsIn(fileName: string): Promise<string[]> {
  const response = await ana.get(pathFor(fiePaths.document, { id: await documentId(fileName) }));
  return fieDocumentDetailSchema.parse(response.json()).entries.filter((entry) => entry.nif === ANGEL).map((entry) => entry._id);
}

async function exportedRows(entryIds: string[]): Promise<unknown[][]> {
  const response = await ana.post(fiePaths.exportA3, { entryIds });
  expect(response.statusCode, response.body).toBe(200);
  const book = XLSX.read(response.rawPayload, { type: 'buffer' });
  const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0] as string] as XLSX.WorkSheet, { header: 1 });
  return rows.slice(1);
}

async function angelReconciliation() {
  const response = await ana.get(fiePaths.reconciliation);
  return z.array(reconciliationRowSchema).parse(response.json().items).filter((row) => row.nif === ANGEL);
}

describe('a parte confirmed again in a later FIE', () => {
  beforeEach(async () => {
    await upload(ana, [{ name: 'a.fie', data: fileA }, { name: 'b.fie', data: fileB }]);
    await upload(ana, [{ name: 'c.fie', data: fileC }]);
  });

  it('is one row of the list, under the file of its newest state, with each confirmation latest first', async () => {
    const rows = await angelRows();
    expect(rows.map(([file, label, confirmations]) => [file, label, confirmations])).toEqual([
      ['c.fie', 'Continuación en situación de IT', [{ number: 2, date: '2025-01-26' }, { number: 1, date: '2025-01-19' }]],
    ]);
    // The earlier state stays the earlier file's (its detail), but is not listed again.
    expect(await angelIdsIn('b.fie')).toHaveLength(1);
    expect((await angelIdsIn('b.fie'))[0]).not.toBe(rows[0]?.[3]);
  });

  it('is written once by the A3 export, in its newest state, even when both states are selected', async () => {
    const [earlier] = await angelIdsIn('b.fie');
    const [newest] = await angelIdsIn('c.fie');
    const rows = await exportedRows([earlier as string, newest as string]);
    expect(rows).toHaveLength(1);
    const records = await ana.post(fiePaths.a3Records, { entryIds: [earlier as string] });
    expect(records.json().records.map((record: { entryId: string }) => record.entryId)).toEqual([newest]);
  });

  it('is counted once by the reconciliation', async () => {
    expect(await angelReconciliation()).toMatchObject([{ entryId: (await angelIdsIn('c.fie'))[0], pendingEntries: 1 }]);
  });

  it('gives back the state before when the newer file is deleted', async () => {
    expect((await ana.request({ method: 'DELETE', url: pathFor(fiePaths.document, { id: await documentId('c.fie') }) })).statusCode).toBe(204);
    expect((await angelRows()).map(([file, , confirmations]) => [file, confirmations])).toEqual([['b.fie', [{ number: 1, date: '2025-01-19' }]]]);
  });

  it('stays as A3 has it when the new confirmation changes nothing A3 holds; a cancelled one is no longer synced, and cannot be exported', async () => {
    const [newest] = await angelIdsIn('c.fie');
    await ana.post(fiePaths.a3Results, { results: [{ entryId: newest as string, state: 'synced', error: null }] });
    await upload(ana, [{ name: 'd.fie', data: encodeFieFile({ date: '20250203', entries: [{ ...angelCit, 1520: '20250202', 1530: '03' }] }) }]);
    expect((await list(ana)).flatMap((document) => document.entries.filter((entry) => entry.nif === ANGEL).map((entry) => [document.fileName, entry.a3sync]))).toEqual([['d.fie', 'synced']]);
    await upload(ana, [{ name: 'e.fie', data: encodeFieFile({ date: '20250210', entries: [{ ...angelCit, 1520: '20250209', 1530: '04', 1170: 'S' }] }) }]);
    expect((await list(ana)).flatMap((document) => document.entries.filter((entry) => entry.nif === ANGEL).map((entry) => [document.fileName, entry.a3sync, entry.isCanceled]))).toEqual([
      ['e.fie', 'pending', true],
    ]);
    // An anulado parte is never exported nor synced (issue 43, 8), not even through an earlier state of it.
    for (const path of [fiePaths.exportA3, fiePaths.a3Records]) {
      const refused = await ana.post(path, { entryIds: [newest as string] });
      expect(refused.statusCode, path).toBe(400);
      expect(refused.json().message, path).toBe('Los partes anulados no se pasan a A3: quítalos de la selección');
    }
  });
});

describe('migration 0024', () => {
  it('makes the duplicates stored before one parte: the newest state listed, the others kept as earlier states', async () => {
    await upload(ana, [{ name: 'a.fie', data: fileA }, { name: 'b.fie', data: fileB }, { name: 'c.fie', data: fileC }]);
    const [older] = await angelIdsIn('b.fie');
    await ana.post(fiePaths.a3Results, { results: [{ entryId: older as string, state: 'synced', error: null }] });
    db = connectDatabase(server.database);
    // The database as it was before: no parte columns, two rows for Ángel's leave.
    await partesMigration.down(db as Kysely<unknown>);
    await partesMigration.up(db as Kysely<unknown>);
    const rows = await angelRows();
    expect(rows.map(([file, , confirmations]) => [file, confirmations])).toEqual([['c.fie', [{ number: 2, date: '2025-01-26' }, { number: 1, date: '2025-01-19' }]]]);
    // A3 had the parte and the new confirmation changes nothing it holds: not sent again.
    expect((await list(ana)).flatMap((document) => document.entries.filter((entry) => entry.nif === ANGEL).map((entry) => entry.a3sync))).toEqual(['synced']);
    expect(await angelReconciliation()).toHaveLength(1);
  });
});

describe('GET /api/fie/reconciliation (issue 43, 5)', () => {
  it('has a row per worker and company (pluriempleo), sorted by surname', async () => {
    const worker = (name: string, surname: string, nif: string, company: string, ccc: string) => ({
      310: ccc, 320: '0111', 530: company, 670: nif.padStart(14, '0'), 820: surname, 840: name, 1020: '20250110', 1090: '1', 1170: 'N',
    });
    const file = encodeFieFile({
      date: '20250115',
      entries: [
        worker('ANA', 'ZAMORA', '33333333P', 'TALLERES NORTE SL', '28123456789'),
        worker('ZOE', 'ABAD', '44444444A', 'TALLERES NORTE SL', '28123456789'),
        worker('ZOE', 'ABAD', '44444444A', 'BAR SOL SL', '08765432101'),
      ],
    });
    await upload(ana, [{ name: 'pluri.fie', data: file }]);
    const response = await ana.get(fiePaths.reconciliation);
    const rows = z.array(reconciliationRowSchema).parse(response.json().items);
    expect(rows.map((row) => [row.sortName, row.companyName, row.pendingEntries])).toEqual([
      ['ABAD, ZOE', 'BAR SOL SL', 1],
      ['ABAD, ZOE', 'TALLERES NORTE SL', 1],
      ['ZAMORA, ANA', 'TALLERES NORTE SL', 1],
    ]);
    // Rows stored before the column: migration 0024-fie-sort-names fills it from their fields.
    db = connectDatabase(server.database);
    await sortNamesMigration.down(db as Kysely<unknown>);
    await sortNamesMigration.up(db as Kysely<unknown>);
    const again = z.array(reconciliationRowSchema).parse((await ana.get(fiePaths.reconciliation)).json().items);
    expect(again.map((row) => row.sortName)).toEqual(['ABAD, ZOE', 'ABAD, ZOE', 'ZAMORA, ANA']);
  });
});
