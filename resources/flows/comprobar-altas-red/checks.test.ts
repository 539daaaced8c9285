import { describe, expect, it } from 'vitest';
import type * as XLSX from 'xlsx';
import { ageOn, calendarDateOf, checkWorker, documentTypeOf, isPartTimeContract, type RowCheck, type WorkerField } from './checks.ts';

const text = (v: string): XLSX.CellObject => ({ t: 's', v, w: v });
const TODAY = { year: 2025, month: 3, day: 14 };

/** A row that is ready for RED, with some cells replaced. */
function check(changes: Partial<Record<WorkerField, string | null>> = {}): string[] {
  const values: Record<WorkerField, string | null> = {
    tipoDocumento: '1', documento: '12345678Z', naf: '281234567840', ccc: '28255627528', nombre: 'Ana', primerApellido: 'Gil',
    segundoApellido: null, sexo: 'M', fechaNacimiento: '14/03/2009', fechaAlta: '14/03/2025', tipoContrato: '100',
    grupoCotizacion: '7', coeficiente: null, ...changes,
  };
  const cells: RowCheck['cells'] = {};
  const columns = new Set<WorkerField>();
  for (const [field, value] of Object.entries(values) as [WorkerField, string | null][]) {
    if (value === null) continue;
    columns.add(field);
    cells[field] = value === '' ? undefined : text(value);
  }
  return checkWorker({ cells, columns, today: TODAY }).map((problem) => problem.message);
}

describe('checkWorker', () => {
  it('passes a worker who turns 16 on the day of an alta filed that same day', () => {
    expect(check()).toEqual([]);
    expect(check({ fechaNacimiento: '15/03/2009' })).toEqual(['Tendría 15 años en la fecha de alta: la edad mínima para trabajar es 16']);
  });

  it('takes altas from today up to 60 days ahead', () => {
    expect(check({ fechaAlta: '13/05/2025' })).toEqual([]);
    expect(check({ fechaAlta: '14/05/2025' })).toEqual(['La fecha de alta (14/05/2025) está a más de 60 días: Sistema RED aún no la admite']);
    expect(check({ fechaAlta: '13/03/2025', fechaNacimiento: '01/01/1990' })).toEqual(['La fecha de alta (13/03/2025) ya ha pasado: el alta se presentaría fuera de plazo']);
    expect(check({ fechaAlta: '30/02/2025' })).toEqual(['La fecha de alta no es una fecha válida']);
  });

  it('matches the document with its type', () => {
    expect(check({ tipoDocumento: 'N.I.E.', documento: 'X1234567L' })).toEqual([]);
    expect(check({ tipoDocumento: '6', documento: 'X1234567A' })).toEqual(['La letra del NIE no es correcta']);
    expect(check({ tipoDocumento: '6', documento: '12345678Z' })).toEqual(['El documento es un NIF: el tipo de documento debe ser 1']);
    expect(check({ tipoDocumento: 'Pasaporte', documento: 'X1234567L' })).toEqual(['El documento es un NIE: el tipo de documento debe ser 6']);
    expect(check({ tipoDocumento: '02', documento: 'PAA123456' })).toEqual([]);
    expect(check({ tipoDocumento: '3', documento: 'PAA123456' })).toEqual(['El tipo de documento debe ser 1 (DNI/NIF), 2 (pasaporte) o 6 (NIE)']);
    expect(check({ tipoDocumento: '' })).toEqual(['Falta el tipo de documento (1 DNI/NIF, 2 pasaporte, 6 NIE)']);
    expect(check({ tipoDocumento: null, documento: '12345678A' })).toEqual(['La letra del NIF no es correcta']);
  });

  it('asks a coefficient of part-time contracts only', () => {
    expect(check({ tipoContrato: '200', coeficiente: '500' })).toEqual([]);
    expect(check({ tipoContrato: '200', coeficiente: '0,5' })).toEqual([
      'El coeficiente de parcialidad va de 1 a 999 (milésimas de jornada: 500 es media jornada)',
    ]);
    expect(check({ tipoContrato: '501' })).toEqual(['El contrato 501 es a tiempo parcial: falta el coeficiente de parcialidad']);
    expect(check({ tipoContrato: '401', coeficiente: '0' })).toEqual([]);
  });

  it('limits names to what the AYN segment holds', () => {
    expect(check({ nombre: 'María José', primerApellido: 'De la Fuente-Núñez' })).toEqual([]);
    expect(check({ primerApellido: 'Fernández de Córdoba y' })).toEqual(['Primer apellido: más de 20 caracteres (Sistema RED admite 20)']);
    expect(check({ segundoApellido: "O'Neill" })).toEqual(['Segundo apellido: solo letras, espacios y guiones']);
  });
});

describe('cell readers', () => {
  it('reads dates from Excel date cells and from text', () => {
    expect(calendarDateOf({ t: 'n', v: 45730, z: 'dd/mm/yyyy' })).toEqual({ year: 2025, month: 3, day: 14 });
    expect(calendarDateOf({ t: 'n', v: 45730 })).toBeNull();
    expect(calendarDateOf(text('2025-03-14'))).toEqual({ year: 2025, month: 3, day: 14 });
  });

  it('reads document types, ages and part-time codes', () => {
    expect(['1', '01', 'DNI', 'd.n.i./n.i.f.', 'Pasaporte', 'NIE', '6', 'CIF'].map(documentTypeOf)).toEqual([1, 1, 1, 1, 2, 6, 6, null]);
    expect(ageOn({ year: 2008, month: 2, day: 29 }, { year: 2024, month: 2, day: 28 })).toBe(15);
    expect(['200', '289', '502', '100', '401', '300'].map(isPartTimeContract)).toEqual([true, true, true, false, false, false]);
  });
});
