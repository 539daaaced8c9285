/** Issue 43 (9): why an upload failed, said plainly: an empty file is empty, and a reason after a colon starts in lower case. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as XLSX from 'xlsx';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { afterColon } from './messages.ts';
import { NOW, upload } from './test-support.ts';

let server: TestServer;
let ana: CookieJar;
beforeEach(async () => {
  server = await startTestServer({ now: () => NOW, scheduleRunnerIntervalMs: 0, fileRetention: { sweepIntervalMs: 0 } });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
});
afterEach(async () => server.close());

describe('POST /api/fie/upload: reasons', () => {
  it('says an empty file (or one of blanks) is empty, not that it lacks the ETI header; a sheet without FIE columns reads in lower case after the colon', async () => {
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['hola', 'adiós'], ['1', '2']]), 'Hoja1');
    const sheet = XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
    const outcome = await upload(ana, [
      { name: 'vacio.fie', data: '' },
      { name: 'blancos.txt', data: '  \r\n\r\n ' },
      { name: 'otra.xlsx', data: sheet },
    ]);
    expect(outcome.results.map((result) => [result.fileName, result.status, result.reason])).toEqual([
      ['vacio.fie', 'failed', 'El archivo está vacío: no tiene ningún parte'],
      ['blancos.txt', 'failed', 'El archivo está vacío: no tiene ningún parte'],
      ['otra.xlsx', 'failed', 'El FIE no se puede leer: la hoja de cálculo no tiene una fila de cabecera con códigos o nombres de campos del FIE'],
    ]);
  });

  it('keeps acronyms and codes as they are after a colon', () => {
    expect(afterColon('La hoja «FIE» está dañada')).toBe('la hoja «FIE» está dañada');
    expect(afterColon('FIE5 no es una versión que se lea')).toBe('FIE5 no es una versión que se lea');
    expect(afterColon('ya está en minúscula')).toBe('ya está en minúscula');
  });
});
