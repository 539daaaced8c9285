import type { A3AltaRow, RedAltaRecord } from '#shared/api/altas.ts';

/** Test-only: one complete alta as the server builds it (shared/altas/records.ts), valid NIF and NAF. */
export function a3AltaRow(submissionId: string, overrides: Partial<A3AltaRow> = {}): A3AltaRow {
  return {
    submissionId,
    ccc: '28123456789',
    nif: '12345678Z',
    naf: '281234567840',
    primerApellido: 'PEREZ',
    segundoApellido: 'GARCIA',
    nombre: 'ANA',
    fechaAlta: '2026-12-01',
    tipoContrato: '100',
    grupoCotizacion: '05',
    coeficienteParcialidad: '',
    convenio: '28000155011981',
    ocupacion: '5120',
    categoria: 'Camarera',
    fechaNacimiento: '1990-04-15',
    sexo: '2',
    ...overrides,
  };
}

export function redAltaRecord(submissionId: string, overrides: Partial<RedAltaRecord> = {}): RedAltaRecord {
  return {
    submissionId,
    worker: 'ANA PEREZ GARCIA',
    company: 'TALLERES PEREZ SL',
    nafProvince: '28',
    nafNumber: '1234567840',
    regimen: '0111',
    ipfType: '1',
    ipfNumber: '012345678Z',
    cccProvince: '28',
    cccNumber: '123456789',
    situacion: '01',
    fechaReal: '2026-12-01',
    grupoCotizacion: '05',
    tipoContrato: '100',
    coeficienteParcialidad: '',
    convenio: '28000155011981',
    ocupacion: '5120',
    primerApellido: 'PEREZ',
    segundoApellido: 'GARCIA',
    nombre: 'ANA',
    fechaNacimiento: '1990-04-15',
    sexo: '2',
    ...overrides,
  };
}
