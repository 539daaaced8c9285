import { describe, expect, it } from 'vitest';
import { resultName, runStatus } from './status.ts';

describe('runStatus', () => {
  it.each([
    ['Success', 0, 200, 'Finalizado'],
    ['Fail', 1, 500, 'El robot no se ha lanzado correctamente'],
    ['WrongInput', 2, 400, 'Entradas incorrectas'],
    ['NotEnoughSlans', 3, 402, 'Insuficientes slans'],
    ['FlowAborted', 4, 299, 'Robot interrumpido'],
  ] as const)('maps %s (%i) to %i %s', (name, code, status, label) => {
    expect(runStatus({ result: name })).toEqual({ status, label });
    expect(runStatus({ result: code })).toEqual({ status, label });
  });

  it('says the run was stopped when the user stopped it, whatever the result', () => {
    expect(runStatus({ result: 'Fail', stoppedByUser: true })).toEqual({ status: 202, label: 'Robot detenido' });
    expect(runStatus({ stoppedByUser: true })).toEqual({ status: 202, label: 'Robot detenido' });
  });

  it('names the credit unit of the firm in the 402 label', () => {
    expect(runStatus({ result: 3 }, 'crédito|créditos').label).toBe('Insuficientes créditos');
  });

  it.each([[undefined], [7], ['Exploded'], [null], ['toString']])('calls %j an unexpected error', (result) => {
    expect(runStatus({ result })).toEqual({ status: null, label: 'Error inesperado' });
  });
});

describe('resultName', () => {
  it('reads numeric text too', () => {
    expect(resultName('2')).toBe('WrongInput');
    expect(resultName('2.5')).toBeNull();
  });
});
