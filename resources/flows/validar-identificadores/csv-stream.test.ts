import { beforeAll, describe, expect, it } from 'vitest';
import type { RobotFile } from '#shared/flows/robot.ts';
import { cellDifferences, runRobot, workbookCells, type RecordedRun, type WorkbookCells } from '../_lib/testing.ts';
import robot, { STREAM_FROM_BYTES, validateInMemory } from './robot.ts';

/**
 * The streamed CSV path (csv-stream.ts) against the in-memory one (robot.ts validateInMemory, SheetJS)
 * on a generated CSV of 12,000 workers: a title line and a blank line above the header, quoted fields
 * with the separator inside, blank rows, short and long rows, text that looks like a formula, wrong
 * identifiers, accents — in UTF-8 and in Latin-1 (Excel's 'CSV' on Windows). Same cells, summary, log.
 */

const ROWS = 12_000;
const LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

function sampleCsv(): string {
  const lines = ['Plantilla de enero;;;', ';;;', 'Nombre;DNI/NIE;Cuenta bancaria (IBAN);Observaciones'];
  for (let row = 0; row < ROWS; row += 1) {
    const digits = String(10_000_000 + row);
    const letter = row % 97 === 0 ? 'A' : LETTERS[Number(digits) % 23];
    const name = row % 5 === 0 ? `"Muñoz; Pérez ${row}"` : `Trabajador ${row}`;
    const iban = row % 7 === 0 ? '' : 'ES9121000418450200051332';
    const note = row % 11 === 0 ? '=HYPERLINK("http://x")' : row % 13 === 0 ? ' con espacios ' : '';
    if (row % 500 === 0) lines.push(';;;');
    if (row % 777 === 0) lines.push(`${name};${digits}${letter}`);
    else if (row % 888 === 0) lines.push(`${name};${digits}${letter};${iban};${note};de más;y más`);
    else lines.push(`${name};${digits}${letter};${iban};${note}`);
  }
  return `${lines.join('\r\n')}\r\n`;
}

const text = sampleCsv();
const utf8: RobotFile = { name: 'plantilla enero.csv', data: new TextEncoder().encode(text) };
const latin1: RobotFile = { name: 'plantilla enero.csv', data: Uint8Array.from(text, (char) => char.charCodeAt(0)) };

describe('validar-identificadores on a large CSV, streamed', () => {
  const runs: Record<'utf8' | 'latin1', { streamed: RecordedRun; inMemory: RecordedRun }> = {} as never;
  beforeAll(async () => {
    for (const [key, file] of [['utf8', utf8], ['latin1', latin1]] as const) {
      // The stream comes in odd pieces, so characters and rows are cut between chunks.
      const chunked: RobotFile = {
        ...file,
        size: file.data.length,
        async *stream() {
          for (let at = 0; at < file.data.length; at += 65_537) yield file.data.subarray(at, at + 65_537);
        },
      };
      runs[key] = {
        streamed: await runRobot(robot, { files: { workbook: [chunked] } }),
        inMemory: await runRobot({ run: (context) => validateInMemory(context, file) }),
      };
    }
  }, 90_000);

  it.each(['utf8', 'latin1'] as const)('gives the same result, log and cells as SheetJS in memory (%s)', (key) => {
    const { streamed, inMemory } = runs[key];
    expect(utf8.data.length).toBeGreaterThan(STREAM_FROM_BYTES);
    expect(streamed.result.result).toBe('Success');
    expect({ ...streamed.result, outputs: [] }).toEqual({ ...inMemory.result, outputs: [] });
    expect(streamed.logs).toEqual(inMemory.logs);
    expect(streamed.progress.at(-1)).toEqual(inMemory.progress.at(-1));

    const [ours, theirs] = [streamed, inMemory].map((run) => workbookCells(run.result.outputs[0]?.data ?? new Uint8Array(), { textFormat: true })) as [WorkbookCells, WorkbookCells];
    expect(ours.names).toEqual(['plantilla enero', 'Resumen']);
    expect(ours.names).toEqual(theirs.names);
    expect(cellDifferences(ours, theirs)).toEqual([]);
    const sheet = ours.sheets['plantilla enero'] ?? {};
    expect(['A3', 'B3', 'C3', 'D3', 'E3'].map((address) => sheet[address]?.v)).toEqual(['Nombre', 'DNI/NIE', 'Resultado DNI/NIE', 'Cuenta bancaria (IBAN)', 'Resultado Cuenta bancaria (IBAN)']);
    expect(sheet['A5']?.v).toBe('Muñoz; Pérez 0');
  });

  it('sends progress while it reads, not only at the end', () => {
    const { progress } = runs.utf8.streamed;
    expect(progress.length).toBeGreaterThan(3);
    expect(progress[0]?.[0]).toBeLessThan(ROWS);
  });

  it('stops when asked, with no output', async () => {
    const { result } = await runRobot(robot, { files: { workbook: [utf8] }, stopAfter: 1 });
    expect(result).toEqual({ result: 'Fail', message: 'Robot detenido', usageUnits: 0, outputs: [] });
  });
});
