import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleFierFile } from '../../standins/fier/files.ts';
import { addDays, madridYesterday, orderedRange, splitRange } from './dates.ts';
import { readSiltraFolder, SILTRA_FOLDER_MISSING } from './folder.ts';

let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'siltra-'));
  // SILTRA's INSS mailbox: FIE text files by their header date, other files it keeps, and a subfolder.
  await writeFile(join(folder, 'FIE_20261120.txt'), sampleFierFile('2026-11-20', 2).bytes);
  await writeFile(join(folder, 'FIE_20261121.txt'), sampleFierFile('2026-11-21', 3).bytes);
  await mkdir(join(folder, 'MREC'));
  await writeFile(join(folder, 'MREC', 'R0001.fie'), sampleFierFile('2026-11-25', 1).bytes);
  await writeFile(join(folder, 'AFI_20261121.afi'), 'ATR01 this is an affiliation file, not a FIE\r\n');
  await writeFile(join(folder, 'vacio.txt'), '');
  // An Excel export counts for the day it was written (Madrid).
  await writeFile(join(folder, 'FIE exportado.xlsx'), 'PK\u0003\u0004 (bytes of a workbook)');
  await utimes(join(folder, 'FIE exportado.xlsx'), new Date('2026-11-21T10:00:00Z'), new Date('2026-11-21T10:00:00Z'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

describe('SILTRA received-files folder', () => {
  it('reads the FIE files of one day, by the date in their header', async () => {
    const files = await readSiltraFolder(folder, '2026-11-20', '2026-11-20');
    expect(files.map((file) => [file.name, file.day, file.source])).toEqual([['FIE_20261120.txt', '2026-11-20', 'folder']]);
    expect(Buffer.from(files[0]!.bytes).equals(Buffer.from(sampleFierFile('2026-11-20', 2).bytes))).toBe(true);
  });

  it('reads a range, subfolders included, and skips what is not a FIE', async () => {
    const files = await readSiltraFolder(folder, '2026-11-21', '2026-11-30');
    expect(files.map((file) => [file.name, file.day])).toEqual([
      ['FIE exportado.xlsx', '2026-11-21'],
      ['FIE_20261121.txt', '2026-11-21'],
      ['MREC_R0001.fie', '2026-11-25'],
    ]);
  });

  it('finds nothing for days without files', async () => {
    expect(await readSiltraFolder(folder, '2026-10-01', '2026-10-31')).toEqual([]);
  });

  it('says which folder is missing', async () => {
    await expect(readSiltraFolder(join(folder, 'no-existe'), '2026-11-20', '2026-11-20')).rejects.toThrow(SILTRA_FOLDER_MISSING(join(folder, 'no-existe')));
  });
});

describe('fetch days', () => {
  it('orders a range and splits it into FIER-sized windows', () => {
    expect(orderedRange(['2026-11-21', '2026-11-01'])).toEqual({ from: '2026-11-01', to: '2026-11-21' });
    expect(orderedRange(['2026-11-21'])).toEqual({ from: '2026-11-21', to: '2026-11-21' });
    expect(splitRange('2026-01-01', '2026-03-05', 31)).toEqual([
      { from: '2026-01-01', to: '2026-01-31' },
      { from: '2026-02-01', to: '2026-03-03' },
      { from: '2026-03-04', to: '2026-03-05' },
    ]);
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
  });

  it("yesterday is the Madrid day before, also just after midnight in Madrid", () => {
    expect(madridYesterday(new Date('2026-11-26T07:00:00Z'))).toBe('2026-11-25');
    // 00:30 in Madrid on the 26th is still the 25th in UTC.
    expect(madridYesterday(new Date('2026-11-25T23:30:00Z'))).toBe('2026-11-25');
  });
});
