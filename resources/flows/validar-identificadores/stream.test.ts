import { beforeAll, describe, expect, it } from 'vitest';
import type { RobotFile } from '#shared/flows/robot.ts';
import { cellDifferences, runRobot, workbookCells, type RecordedRun, type WorkbookCells } from '../_lib/testing.ts';
import robot, { STREAM_FROM_BYTES, validateInMemory } from './robot.ts';
import { sampleWorkbook } from './sample.ts';

/**
 * The streamed path (stream.ts) against the in-memory one (robot.ts validateInMemory) on a generated
 * workbook of 20,000 workers (sample.ts: shared strings, a CCC formatted '00000000000', formulas, a
 * merged title above the header, blank rows, a second sheet): the same cells in every sheet, the same
 * summary and log.
 */

const ROWS = 20_000;
const file: RobotFile = { name: 'plantilla grande.xlsx', data: sampleWorkbook(ROWS) };

describe('validar-identificadores streamed', () => {
  let streamed: RecordedRun;
  let inMemory: RecordedRun;
  let ours: WorkbookCells;
  let theirs: WorkbookCells;
  // Both runs once: SheetJS alone takes several seconds on 20,000 rows.
  beforeAll(async () => {
    streamed = await runRobot(robot, { files: { workbook: [file] } });
    inMemory = await runRobot({ run: (context) => validateInMemory(context, file) });
    ours = workbookCells(streamed.result.outputs[0]?.data ?? new Uint8Array(), { shown: true });
    theirs = workbookCells(inMemory.result.outputs[0]?.data ?? new Uint8Array(), { shown: true });
  }, 90_000);

  it('gives the same summary and log as the in-memory path on 20,000 rows', () => {
    expect(file.data.length).toBeGreaterThan(STREAM_FROM_BYTES);

    expect(streamed.result.result).toBe('Success');
    expect({ ...streamed.result, outputs: [] }).toEqual({ ...inMemory.result, outputs: [] });
    expect(streamed.result.outputs[0]?.name).toBe('plantilla grande validado.xlsx');
    expect(streamed.logs).toEqual(inMemory.logs);
    expect(streamed.logs).toHaveLength(2 + 50 + 1 + 1 + 1);
    expect(streamed.progress.at(-1)).toEqual(inMemory.progress.at(-1));
    expect(streamed.progress.length).toBeLessThanOrEqual(202);
  });

  it('gives the same cells in every sheet as the in-memory path', () => {

    expect(ours.names).toEqual(['Plantilla', 'Notas', 'Resumen']);
    expect(ours.names).toEqual(theirs.names);
    expect(cellDifferences(ours, theirs)).toEqual([]);
    expect(ours.merges).toEqual(theirs.merges);
    // What the sample holds, seen in the result: results after each column, zeros kept by the format, formulas gone.
    const sheet = ours.sheets['Plantilla'] ?? {};
    expect(['C3', 'D3', 'E3', 'F3', 'G3', 'H3', 'I3', 'J3'].map((address) => sheet[address]?.v)).toEqual([
      'DNI/NIE', 'Resultado DNI/NIE', 'Nº afiliación', 'Resultado Nº afiliación', 'Cuenta bancaria (IBAN)', 'Resultado Cuenta bancaria (IBAN)', 'CCC', 'Resultado CCC',
    ]);
    expect(sheet['I5']).toMatchObject({ t: 'n', w: expect.stringMatching(/^0\d{10}$/) });
  });

  it('stops when asked, with no output', async () => {
    const { result, progress } = await runRobot(robot, { files: { workbook: [file] }, stopAfter: 1000 });
    expect(result).toEqual({ result: 'Fail', message: 'Robot detenido', usageUnits: 0, outputs: [] });
    expect(progress.at(-1)?.[0]).toBeLessThan(ROWS);
  });

  it('answers WrongInput as the in-memory path does when no mapped column is in the sheet', async () => {
    const inputs = { columns: { nif: 'Documento', naf: null } };
    const streamed = await runRobot(robot, { files: { workbook: [file] }, inputs });
    expect(streamed.result).toEqual({ result: 'WrongInput', usageUnits: 0, outputs: [], message: 'Ninguna de las columnas elegidas está en la hoja «Plantilla».' });
    expect(streamed.logs).toEqual([{ level: 'warn', text: 'La columna «Documento» elegida para NIF/NIE no está en la hoja «Plantilla».' }]);
  });
});
