import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AFI_LINE_LENGTH, afiText } from './afi-message.ts';
import { readAfi } from './afi-reader.ts';
import { writeAfiRemittance, type AfiWriteOptions } from './afi-writer.ts';
import { redRecord } from './testing/records.ts';

/** 1 December 2026, 10:05 in Madrid. */
const NOW = new Date('2026-12-01T09:05:00Z');
let siltra: string;
let logs: string[];

beforeEach(async () => {
  siltra = await mkdtemp(join(tmpdir(), 'siltra-'));
  logs = [];
});
afterEach(async () => {
  await rm(siltra, { recursive: true, force: true });
});

function options(overrides: Partial<AfiWriteOptions> = {}): AfiWriteOptions {
  return { siltraFolder: siltra, authorizationKey: '12345678', test: false, now: () => NOW, log: (level, text) => logs.push(`${level}: ${text}`), ...overrides };
}
const afiFolder = () => join(siltra, 'RED', 'VIPTC2', 'AFI');

describe('AFI remittance', () => {
  it('writes one file into RED/VIPTC2/AFI that reads back field by field, every line 70 latin1 characters', async () => {
    const fullTime = redRecord();
    const partTime = redRecord({ submissionId: 'alta-2', nafNumber: '1234567840', ipfNumber: '0X1234567L', ipfType: '6', tipoContrato: '200', coeficienteParcialidad: '500', convenio: '', ocupacion: '', primerApellido: 'GARÇON', segundoApellido: '', nombre: 'JOSÉ', sexo: '1', fechaNacimiento: '' });
    const otherCompany = redRecord({ submissionId: 'alta-3', company: 'Talleres Ruiz', cccProvince: '08', cccNumber: '000000026', grupoCotizacion: '7' });

    const outcome = await writeAfiRemittance([fullTime, partTime, otherCompany], options());
    expect(outcome.file).toBe(join(afiFolder(), 'A1201001.AFI'));
    expect(outcome.results).toEqual([fullTime, partTime, otherCompany].map((record) => ({
      submissionId: record.submissionId, state: 'afi-written', afiFile: 'A1201001.AFI', message: 'Incluida en el fichero AFI A1201001.AFI, pendiente de envío por SILTRA.',
    })));
    expect(await readdir(afiFolder())).toEqual(['A1201001.AFI']);

    const bytes = await readFile(outcome.file);
    const text = bytes.toString('latin1');
    for (const line of text.split('\r\n').slice(0, -1)) expect(line).toHaveLength(AFI_LINE_LENGTH);
    expect(text.split('\r\n').map((line) => line.slice(0, 3))).toEqual(['ETI', 'EMP', 'RZS', 'TRA', 'AYN', 'FAB', 'ODL', 'TRA', 'AYN', 'FAB', 'DAM', 'EMP', 'RZS', 'TRA', 'AYN', 'FAB', 'ODL', '']);
    // Ñ is one latin1 byte (0xD1), not UTF-8's two.
    expect(bytes.includes(0xd1)).toBe(true);
    expect(bytes.includes(0xc3)).toBe(false);

    const read = readAfi(bytes);
    expect(read.header).toMatchObject({ syntax: 'AFI9', authorizationKey: '12345678', date: '20261201', time: '1005', fileName: 'A1201001', extension: 'AFI', priority: 'N', testIndicator: '' });
    expect(read.header.registryId).toEqual({ year: '26', month: '12', series: '1', sendNumber: '00001', ordinal: '0001' });
    expect(read.companies.map((company) => [company.regimen, company.ccc, company.cccAgain, company.razonSocial, company.authorizationKey, company.workers.length])).toEqual([
      ['0111', '28255627528', '28255627528', 'PANADERIA MARTINEZ, S.L.', '12345678', 2],
      ['0111', '08000000026', '08000000026', 'TALLERES RUIZ', '12345678', 1],
    ]);
    expect(read.companies[0]!.workers[0]).toEqual({
      naf: '280123456742', ipfType: '1', ipf: '0000012345678Z', primerApellido: 'PEÑA', segundoApellido: 'NUÑEZ', nombre: 'LUCIA', action: 'MA', situacion: '01',
      fechaReal: '20261201', grupoCotizacion: '05', tipoContrato: '100', coeficienteParcialidad: '', fechaNacimiento: '19900417', sexo: '2',
      contractStart: null, initialCoefficient: null, convenio: '28000245011981', ocupacion: '5120',
    });
    expect(read.companies[0]!.workers[1]).toMatchObject({ naf: '281234567840', ipfType: '6', ipf: '00000X1234567L', primerApellido: 'GARÇON', nombre: 'JOSE', tipoContrato: '200', coeficienteParcialidad: '500', contractStart: '20261201', initialCoefficient: '500', convenio: null });
    expect(read.companies[1]!.workers[0]).toMatchObject({ grupoCotizacion: '07' });
  });

  it('numbers the day\'s remittances and never overwrites one; a test remittance carries P', async () => {
    await writeFile(join(await mkdtemp(join(siltra, 'x')), 'ignored'), '');
    const first = await writeAfiRemittance([redRecord()], options());
    const second = await writeAfiRemittance([redRecord()], options({ test: true }));
    expect(second.file).toBe(join(afiFolder(), 'A1201002.AFI'));
    const read = readAfi(await readFile(second.file));
    expect(read.header).toMatchObject({ fileName: 'A1201002', testIndicator: 'P' });
    expect(read.header.registryId.sendNumber).toBe('00002');
    expect(readAfi(await readFile(first.file)).header.fileName).toBe('A1201001');
    expect((await readdir(afiFolder())).sort()).toEqual(['A1201001.AFI', 'A1201002.AFI']);
  });

  it('leaves out a record that does not fit the layout, with its reason, and writes the rest', async () => {
    const outcome = await writeAfiRemittance([redRecord({ submissionId: 'malo', nafNumber: '12345' }), redRecord({ submissionId: 'bueno' })], options());
    expect(outcome.results).toEqual([
      { submissionId: 'malo', state: 'error', message: 'No se puede incluir en el fichero AFI: el NAF debe tener 12 dígitos.' },
      expect.objectContaining({ submissionId: 'bueno', state: 'afi-written' }),
    ]);
    expect(readAfi(await readFile(outcome.file)).companies[0]!.workers).toHaveLength(1);
    expect(logs.some((line) => line.startsWith('error: LUCÍA PEÑA NÚÑEZ (Panadería Martínez, S.L.): No se puede incluir'))).toBe(true);

    const none = await writeAfiRemittance([redRecord({ tipoContrato: '1' })], options());
    expect(none.file).toBe('');
    expect(none.results[0]).toMatchObject({ state: 'error', message: 'No se puede incluir en el fichero AFI: el tipo de contrato debe tener 3 dígitos.' });
  });

  it('refuses without a clave de autorización RED', async () => {
    await expect(writeAfiRemittance([redRecord()], options({ authorizationKey: '' }))).rejects.toThrow('Falta la clave de autorización RED');
  });

  it('the reader refuses a short line and a segment out of order, naming the line', () => {
    const eti = `ETIAFI9${' '.repeat(63)}`;
    const emp = `EMP${' '.repeat(67)}`;
    expect(() => readAfi(Buffer.from(`${eti}\r\n${emp.slice(0, 60)}\r\n`, 'latin1'))).toThrow('Línea 2: tiene 60 caracteres, no 70');
    expect(() => readAfi(Buffer.from(`${eti}\r\n${emp}\r\n${`TRA${' '.repeat(67)}`}\r\n`, 'latin1'))).toThrow('Línea 3: se esperaba RZS, no TRA');
    expect(() => readAfi(Buffer.from(`${eti}\r\n${emp}\r\n${`RZS${' '.repeat(67)}`}\r\n`, 'latin1'))).toThrow('termina a medias');
  });

  it('afiText keeps Ñ and Ç, drops accents and anything outside latin1', () => {
    expect(afiText('Peña Núñez, François — 日本')).toBe('PEÑA NUÑEZ, FRANÇOIS     ');
  });
});
