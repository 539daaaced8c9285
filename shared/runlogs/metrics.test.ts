import { describe, expect, it } from 'vitest';
import { executionType, runCost, successRatio } from './metrics.ts';

describe('executionType', () => {
  it('is a remote launch when scheduled on a machine', () => {
    expect(executionType({ scheduled: true, browserFlowSchedule: { machine: { name: 'Oficina' } } })).toBe('Lanzamiento remoto');
  });

  it('is scheduled when scheduled without a machine', () => {
    expect(executionType({ scheduled: true })).toBe('Programado');
    expect(executionType({ browserFlowSchedule: 'sched-1' })).toBe('Programado');
    expect(executionType({ scheduled: true, browserFlowSchedule: { machine: null } })).toBe('Programado');
  });

  it('is manual otherwise', () => {
    expect(executionType({})).toBe('Manual');
    expect(executionType({ scheduled: false, browserFlowSchedule: null })).toBe('Manual');
  });
});

describe('successRatio', () => {
  it('flags ratios under 75%', () => {
    expect(successRatio(3, 4)).toEqual({ percentage: 75, low: false });
    expect(successRatio(2, 3)?.low).toBe(true);
    expect(successRatio(0, 5)).toEqual({ percentage: 0, low: true });
  });

  it('has no ratio without iterations', () => {
    expect(successRatio(0, 0)).toBeNull();
    expect(successRatio(undefined, 3)).toBeNull();
  });
});

describe('runCost', () => {
  it('sums usage units times their ratio', () => {
    expect(runCost([{ usageUnits: 10, usageRatio: 0.5 }, { usageUnits: 2, usageRatio: 3 }])).toBe(11);
    expect(runCost([])).toBe(0);
    expect(runCost(undefined)).toBe(0);
  });
});
