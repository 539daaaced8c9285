import { describe, expect, it } from 'vitest';
import { formatDuration, toHistoryRow } from './historyRows.ts';
import { flowLog } from './testData.ts';

describe('toHistoryRow', () => {
  it('shows the date and time in Madrid, summer and winter', () => {
    expect(toHistoryRow(flowLog({ createAt: '2025-07-14T07:05:00.000Z' })).date).toBe('14/07/2025 09:05');
    expect(toHistoryRow(flowLog({ createAt: '2025-01-31T23:30:00.000Z' })).date).toBe('01/02/2025 00:30');
  });

  it('costs usage units times their ratio, in the firm\'s currency names', () => {
    const log = flowLog({ usageHistory: [{ usageUnits: 12, usageRatio: 0.5 }, { usageUnits: 1, usageRatio: 2 }] });
    expect(toHistoryRow(log).cost).toBe('8 slans');
    expect(toHistoryRow(flowLog({ usageHistory: [{ usageUnits: 1, usageRatio: 1 }] }), 'crédito|créditos').cost).toBe('1 crédito');
    expect(toHistoryRow(flowLog({ usageHistory: [] })).cost).toBe('0 slans');
  });

  it('names the launch type', () => {
    expect(toHistoryRow(flowLog()).launchType).toBe('Manual');
    expect(toHistoryRow(flowLog({ scheduled: true, browserFlowSchedule: { _id: 's', machine: null } })).launchType).toBe('Programado');
    expect(toHistoryRow(flowLog({ scheduled: true, browserFlowSchedule: { _id: 's', machine: { name: 'Oficina' } } })).launchType).toBe('Lanzamiento remoto');
    // Issue 7: a run launched for a machine from the web (no schedule) is remote too.
    expect(toHistoryRow(flowLog({ remote: true, machine: { _id: 'm', name: 'Oficina' } })).launchType).toBe('Lanzamiento remoto');
  });

  it('names the machine a desktop flow ran on', () => {
    expect(toHistoryRow(flowLog({ machine: { _id: 'm', name: 'Mesa de Ana' } })).machine).toBe('Mesa de Ana');
    expect(toHistoryRow(flowLog({ machine: { _id: null, name: 'PC borrado' } })).machine).toBe('PC borrado');
    expect(toHistoryRow(flowLog()).machine).toBeNull();
  });

  it('maps results to the spec labels, the 402 one with the firm\'s credit name', () => {
    expect(toHistoryRow(flowLog()).result).toEqual({ label: 'Finalizado', tone: 'success' });
    expect(toHistoryRow(flowLog({ result: 'NotEnoughSlans' }), 'crédito|créditos').result).toEqual({ label: 'Insuficientes créditos', tone: 'danger' });
    expect(toHistoryRow(flowLog({ result: 'FlowAborted' })).result.tone).toBe('warning');
    expect(toHistoryRow(flowLog({ result: 'Fail', stoppedByUser: true })).result).toEqual({ label: 'Robot detenido', tone: 'warning' });
    expect(toHistoryRow(flowLog({ result: 'Exploded' })).result).toEqual({ label: 'Error inesperado', tone: 'danger' });
  });

  it('says a run is still going instead of calling it an error', () => {
    expect(toHistoryRow(flowLog({ result: null, state: 'running', finishedAt: null })).result).toEqual({ label: 'En ejecución', tone: 'neutral' });
    expect(toHistoryRow(flowLog({ result: null, state: 'queued', finishedAt: null })).result.label).toBe('En cola');
  });

  it('says when the robot is no longer in the catalogue', () => {
    const row = toHistoryRow(flowLog({ browserFlow: { _id: 'viejo', name: null } }));
    expect(row.robot).toBe('Este robot ya no forma parte de nuestra familia');
    expect(row.robotKnown).toBe(false);
  });

  it('flags a success ratio under 75 %', () => {
    expect(toHistoryRow(flowLog({ successfulIterations: 3, totalIterations: 4 })).iterations).toEqual({ count: '3 de 4', percentage: '75\u00a0%', low: false });
    expect(toHistoryRow(flowLog({ successfulIterations: 2, totalIterations: 3 })).iterations).toEqual({ count: '2 de 3', percentage: '67\u00a0%', low: true });
    expect(toHistoryRow(flowLog({ successfulIterations: 0, totalIterations: 0 })).iterations).toBeNull();
    // A run still going shows its progress, grouped, without the low-success warning.
    expect(toHistoryRow(flowLog({ state: 'running', finishedAt: null, successfulIterations: 5_500, totalIterations: 100_000 })).iterations).toEqual({ count: '5.500 de 100.000', percentage: '6\u00a0%', low: false });
  });

  it("says how long a run took, '1 min 05 s' style, and '—' until it ends", () => {
    const at = '2025-07-14T07:05:00.000Z';
    expect(formatDuration(at, '2025-07-14T07:05:42.400Z')).toBe('42 s');
    expect(formatDuration(at, '2025-07-14T07:06:05.000Z')).toBe('1 min 05 s');
    expect(formatDuration(at, '2025-07-14T09:08:00.000Z')).toBe('2 h 03 min');
    expect(formatDuration(at, null)).toBe('—');
    expect(formatDuration(at, '2025-07-14T07:04:00.000Z')).toBe('—');
    expect(toHistoryRow(flowLog({ state: 'running', result: null, finishedAt: null })).duration).toBe('—');
  });

  it("offers 'Cancelar' for a queued run and 'Detener' for a running one, nothing once it ended", () => {
    expect(toHistoryRow(flowLog({ state: 'queued', result: null, finishedAt: null, executionToken: 't1' })).action).toEqual({ kind: 'cancel', token: 't1' });
    expect(toHistoryRow(flowLog({ state: 'running', result: null, finishedAt: null, executionToken: 't2' })).action).toEqual({ kind: 'stop', token: 't2' });
    expect(toHistoryRow(flowLog({ state: 'running', result: null, finishedAt: null, executionToken: 't3', stoppedByUser: true })).action).toBeNull();
    expect(toHistoryRow(flowLog()).action).toBeNull();
  });
});
