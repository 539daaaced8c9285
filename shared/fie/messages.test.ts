import { describe, expect, it } from 'vitest';
import { FIE_TYPE_LABELS, fieTypeLabel, isFieTypeDisabled } from './labels.ts';
import { lastErrorFor } from './logs.ts';
import {
  alreadyAddedMessage,
  DELETE_FIE_CONFIRM,
  failedMessage,
  fieProcessingError,
  processedMessage,
  processingToast,
  siltraNoResultsMessage,
} from './messages.ts';

describe('FIE messages (spec §8)', () => {
  it('counts processed FIEs in singular and plural', () => {
    expect(processedMessage(1)).toBe('Se ha procesado un FIE.');
    expect(processedMessage(3)).toBe('Se han procesado 3 FIEs.');
  });

  it('has the four failure variants', () => {
    expect(failedMessage(1, 1)).toBe('Este archivo no se ha podido procesar.');
    expect(failedMessage(3, 3)).toBe('No se ha procesado ningún archivo.');
    expect(failedMessage(1, 3)).toBe('Un archivo no se ha podido procesar.');
    expect(failedMessage(2, 5)).toBe('No se han procesado 2 archivos.');
  });

  it('has the four already-added variants', () => {
    expect(alreadyAddedMessage(1, 1)).toBe('Este archivo ya se ha añadido anteriormente.');
    expect(alreadyAddedMessage(2, 2)).toBe('Estos archivos ya se han añadido anteriormente.');
    expect(alreadyAddedMessage(1, 4)).toBe('Un archivo se ha añadido anteriormente.');
    expect(alreadyAddedMessage(2, 4)).toBe('Se han añadido 2 archivos previamente.');
  });

  it('makes an error toast of 5 s only when nothing succeeded', () => {
    expect(processingToast({ processed: 2, failed: 1, alreadyAdded: 0 })).toEqual({
      kind: 'success',
      durationMs: 5000,
      lines: ['Se han procesado 2 FIEs.', 'Un archivo no se ha podido procesar.'],
    });
    expect(processingToast({ processed: 0, failed: 1, alreadyAdded: 1 })).toMatchObject({
      kind: 'error',
      lines: ['Un archivo no se ha podido procesar.', 'Un archivo se ha añadido anteriormente.'],
    });
  });

  it('words the SILTRA no-results detail for a day or a range', () => {
    expect(siltraNoResultsMessage('2025-01-15')).toBe('Sin resultados en el dia 15/01/2025');
    expect(siltraNoResultsMessage('2025-01-10', '2025-01-15')).toBe('Sin resultados entre el 10/01/2025 y el 15/01/2025');
  });

  it('warns on delete that the FIE cannot be recovered and A3 is untouched', () => {
    expect(DELETE_FIE_CONFIRM.title).toBe('Eliminar FIE');
    expect(DELETE_FIE_CONFIRM.text).toMatch(/no se podrá recuperar/);
    expect(DELETE_FIE_CONFIRM.text).toMatch(/A3/);
    expect(fieProcessingError('spreadsheet')).toBe('Error al procesar un FIE [excel]');
  });
});

describe('FIE type labels', () => {
  it('labels every type and disables dop, nac and jub', () => {
    expect(fieTypeLabel('cit')).toBe('Continuación en situación de IT');
    const disabled = Object.entries(FIE_TYPE_LABELS).filter(([, label]) => label.disabled).map(([type]) => type);
    expect(disabled).toEqual(['dop', 'nac', 'jub']);
    expect(isFieTypeDisabled('alta')).toBe(false);
  });
});

describe('lastErrorFor', () => {
  const logs = [
    { level: 'error', timestamp: '2025-01-15T10:00:00Z', text: 'A3: trabajador 12345678Z no encontrado' },
    { level: 'error', timestamp: '2025-01-16T10:00:00Z', text: 'A3: 12345678z sin contrato en la fecha' },
    { level: 'info', timestamp: '2025-01-17T10:00:00Z', text: 'Sincronizado 12345678Z' },
    { level: 'error', timestamp: '2025-01-18T10:00:00Z', text: 'A3: X1234567L no encontrado' },
  ];

  it('is the newest error line mentioning the NIF', () => {
    expect(lastErrorFor('12345678Z', logs)).toBe('A3: 12345678z sin contrato en la fecha');
    expect(lastErrorFor('12345678Z', [...logs].reverse())).toBe('A3: 12345678z sin contrato en la fecha');
  });

  it('is null without a NIF or a matching error', () => {
    expect(lastErrorFor(null, logs)).toBeNull();
    expect(lastErrorFor('Y7654321B', logs)).toBeNull();
  });
});
