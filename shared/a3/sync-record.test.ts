import { describe, expect, it } from 'vitest';
import { decodeFieText } from '../fie/text.ts';
import { encodeFieFile, type FieRawValues } from '../fie/encode.ts';
import { formatCcc, toA3SyncRecord } from './sync-record.ts';

const WORKER: FieRawValues = { 320: '0111', 310: '28123456789', 530: 'EJEMPLO SINTETICO SL', 670: '0000012345678Z' };

function decodedEntry(values: FieRawValues) {
  const entry = decodeFieText(encodeFieFile({ entries: [{ ...WORKER, ...values }] })).entries[0];
  if (!entry) throw new Error('no entry decoded');
  return entry;
}

describe('toA3SyncRecord', () => {
  it('maps an open leave with the spec names and aliases', () => {
    const record = toA3SyncRecord(decodedEntry({ 1020: '20250110', 1030: 'N', 1060: '0004', 1090: '1', 1100: 'S', 1170: 'N' }), { fieId: 'fie-1' });
    expect(record).toEqual({
      fieId: 'fie-1',
      dniEmpleado: '12345678Z',
      nombreEmpresa: 'EJEMPLO SINTETICO SL',
      fechaFormateada: '10/01/2025',
      incidencia: 2,
      carencia: true,
      contingencia: 1,
      ccc: '28123456789',
      formatedccc: '28/1234567/89',
      diasAcumulados: 4,
      fechaBajaBajaDuracion: null,
      incidenciaBajaBajaDuracion: null,
      canceled: false,
      date: '10/01/2025',
      incidenceCode: 2,
      workerDNI: '12345678Z',
    });
  });

  it('dates an alta by its end date and carries the leave of a short one', () => {
    const record = toA3SyncRecord(decodedEntry({ 1020: '20250110', 1090: '3', 1150: '20250111', 1100: 'N' }));
    expect(record).toMatchObject({
      fieId: null,
      incidencia: 7,
      fechaFormateada: '11/01/2025',
      carencia: false,
      fechaBajaBajaDuracion: '10/01/2025',
      incidenciaBajaBajaDuracion: 3,
    });
  });

  it('leaves the short-leave fields empty for a longer alta', () => {
    const record = toA3SyncRecord(decodedEntry({ 1020: '20250110', 1090: '3', 1150: '20250120' }));
    expect(record).toMatchObject({ incidencia: 7, fechaBajaBajaDuracion: null, incidenciaBajaBajaDuracion: null });
  });

  it('flags cancelled notices and passes the flag option through', () => {
    const entry = decodedEntry({ 1020: '20250110', 1090: '1', 1030: 'N', 1100: 'S', 1171: 'S' });
    expect(toA3SyncRecord(entry).canceled).toBe(true);
    expect(toA3SyncRecord(entry, { waitingPeriodFlagCode: 1100 }).incidencia).toBe(5);
  });

  it('formats an 11-digit CCC as PP/NNNNNNN/DD and leaves anything else alone', () => {
    expect(formatCcc('08123456789')).toBe('08/1234567/89');
    expect(formatCcc('123')).toBe('123');
  });
});
