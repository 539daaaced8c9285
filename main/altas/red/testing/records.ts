/** Test-only: altas as the server hands them to the registrar (shared/altas toRedAltaRecord's shape). */
import type { RedAltaRecord } from '#shared/api/altas.ts';

/** A full-time alta in CCC 0111 28 255627528 (valid control digits) for a valid NAF 28 0123456742. */
export function redRecord(overrides: Partial<RedAltaRecord> = {}): RedAltaRecord {
  return {
    submissionId: 'alta-1',
    worker: 'LUCÍA PEÑA NÚÑEZ',
    company: 'Panadería Martínez, S.L.',
    nafProvince: '28',
    nafNumber: '0123456742',
    regimen: '0111',
    ipfType: '1',
    ipfNumber: '012345678Z',
    cccProvince: '28',
    cccNumber: '255627528',
    situacion: '01',
    fechaReal: '2026-12-01',
    grupoCotizacion: '05',
    tipoContrato: '100',
    coeficienteParcialidad: '',
    convenio: '28000245011981',
    ocupacion: '5120',
    primerApellido: 'PEÑA',
    segundoApellido: 'NÚÑEZ',
    nombre: 'LUCÍA',
    fechaNacimiento: '1990-04-17',
    sexo: '2',
    ...overrides,
  };
}
