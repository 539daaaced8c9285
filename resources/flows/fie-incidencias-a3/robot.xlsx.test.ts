import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { INCIDENCIAS_HEADER, incidenciasRow } from '#shared/a3/incidences-sheet.ts';
import { toA3SyncRecord } from '#shared/a3/sync-record.ts';
import { sampleFieWorkbook } from '#shared/fie/sample-workbook.ts';
import { decodeFieSpreadsheet } from '#shared/fie/spreadsheet.ts';
import { runRobot, type RecordedRun } from '../_lib/testing.ts';
import robot, { DAMAGED_SHEET_ERROR, entryProblem, ERROR_COLUMNS } from './robot.ts';

/**
 * A FIE saved as an .xlsx goes through streamFieXlsx (issue 19: SheetJS could not hold a year's export in
 * the robot's 1 GB): the workbook must hold the cells the SheetJS path gives for the same file.
 */

const ENTRIES = 5_000;

function sheetRows(data: Uint8Array | undefined, sheetName: string): unknown[][] {
  const workbook = XLSX.read(data ?? new Uint8Array(), { type: 'array', dense: true });
  const sheet = workbook.Sheets[sheetName];
  if (!sheet) throw new Error(`No sheet ${sheetName}`);
  return XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null });
}

/** The rows of 'Incidencias' from SheetJS's reading of the file. */
function expectedRows(name: string, bytes: Uint8Array): unknown[][] {
  return decodeFieSpreadsheet(bytes)
    .entries.map((entry) => ({ entry, record: toA3SyncRecord(entry, { fieId: name }) }))
    .filter(({ entry, record }) => entryProblem(entry, record) === null)
    .map(({ entry, record }) => incidenciasRow(record, entry));
}

describe('fie-incidencias-a3 on a FIE saved as an .xlsx', () => {
  let workbook: Uint8Array;
  let run: RecordedRun;
  beforeAll(async () => {
    workbook = sampleFieWorkbook(ENTRIES);
    run = await runRobot(robot, { files: { fies: [{ name: 'partes.xlsx', data: workbook }] } });
  }, 20_000);

  it('writes the rows the SheetJS path gives, and says how many partes it read', () => {
    const rows = expectedRows('partes.xlsx', workbook);
    expect(rows).toHaveLength(ENTRIES);
    expect(run.result.result).toBe('Success');
    expect(run.result.usageUnits).toBe(ENTRIES);
    expect(sheetRows(run.result.outputs[0]?.data, 'Incidencias')).toEqual([[...INCIDENCIAS_HEADER], ...rows]);
    expect(run.logs).toContainEqual({ level: 'info', text: `«partes.xlsx» (hoja de cálculo): ${ENTRIES} partes.` });
    expect(run.progress.at(-1)).toEqual([ENTRIES, ENTRIES]);
  });

  it('keeps the partes before a break in the sheet, and lists the file in Errores as Hoja dañada', async () => {
    const files = unzipSync(sampleFieWorkbook(100));
    files['xl/worksheets/sheet1.xml'] = strToU8(strFromU8(files['xl/worksheets/sheet1.xml'] ?? new Uint8Array()).replace('<row r="50"', '<row r="50" <roto'));
    const { result, logs } = await runRobot(robot, { files: { fies: [{ name: 'roto.xlsx', data: zipSync(files) }] } });
    expect(result.result).toBe('Success');
    // Rows 3 to 49 are entries 0 to 46 (row 1 is the title, row 2 the header).
    expect(result.usageUnits).toBe(47);
    const errors = sheetRows(result.outputs[0]?.data, 'Errores');
    expect(errors[0]).toEqual([...ERROR_COLUMNS]);
    expect(errors[1]?.slice(0, 3)).toEqual(['roto.xlsx', null, DAMAGED_SHEET_ERROR]);
    expect(logs.some((line) => line.level === 'error' && line.text.startsWith('«roto.xlsx»: La hoja «Partes» está dañada'))).toBe(true);
  });

  it('stops while the sheet is read, with no output and no charge', async () => {
    const { result } = await runRobot(robot, { files: { fies: [{ name: 'partes.xlsx', data: workbook }] }, stopAfter: 100 });
    expect(result).toEqual({ result: 'Fail', message: 'Robot detenido', usageUnits: 0, outputs: [] });
  });
});
