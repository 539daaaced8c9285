import { describe, expect, it } from 'vitest';
import { expiredCertificateMessage, workbookProblem } from './launch-checks.ts';

const columns = [
  { key: 'nif', label: 'NIF/NIE', headerHints: ['nif', 'dni', 'nie'] },
  { key: 'iban', label: 'IBAN', headerHints: ['iban', 'cuenta'] },
];

describe('workbookProblem', () => {
  it('refuses a sheet with no data rows, whatever its headers', () => {
    expect(workbookProblem(columns, { sheet: 'Trabajadores', columns: ['DNI', 'IBAN'], rowCount: 0 }))
      .toBe('La hoja «Trabajadores» no tiene filas de datos: añade al menos una fila debajo de los encabezados.');
    expect(workbookProblem(columns, { sheet: 'Hoja1', columns: [], rowCount: 0 })).toMatch(/^La hoja «Hoja1» no tiene filas de datos/);
  });

  it('refuses headers the robot does not know, naming the ones it expects; a known header or a hand mapping is enough', () => {
    expect(workbookProblem(columns, { sheet: 'Hoja1', columns: ['Producto', 'Precio'], rowCount: 3 }))
      .toBe('No se reconoce ninguna columna del archivo. El robot espera encabezados como: «NIF/NIE», «IBAN». Renombra las columnas o usa la plantilla.');
    expect(workbookProblem(columns, { sheet: 'Hoja1', columns: ['Nombre', 'D.N.I.'], rowCount: 3 })).toBeNull();
    expect(workbookProblem(columns, { sheet: 'Hoja1', columns: ['Nombre', 'Cuenta'], rowCount: 3 })).toBeNull();
    expect(workbookProblem(columns, { sheet: 'Hoja1', columns: ['Producto', 'Precio'], rowCount: 3 }, { nif: 'Producto', iban: null })).toBeNull();
    // A mapping naming a header the sheet does not have does not count.
    expect(workbookProblem(columns, { sheet: 'Hoja1', columns: ['Producto'], rowCount: 3 }, { nif: 'DNI' })).not.toBeNull();
    expect(workbookProblem([], { sheet: 'Hoja1', columns: ['Producto'], rowCount: 3 })).toBeNull();
  });
});

describe('expiredCertificateMessage', () => {
  it('speaks of a certificate past its date only', () => {
    const now = new Date('2026-11-26T10:00:00Z');
    expect(expiredCertificateMessage('ANA', '2026-11-25T09:00:00Z', now)).toBe('El certificado «ANA» caducó el 25/11/2026: el portal lo rechazará. Elige uno vigente o renuévalo.');
    expect(expiredCertificateMessage('ANA', '2026-11-26T12:00:00Z', now)).toBeNull();
  });
});
