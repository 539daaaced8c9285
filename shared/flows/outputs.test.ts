import { describe, expect, it } from 'vitest';
import { isRobotResult, uniqueNames } from './outputs.ts';

const file = (name: string) => ({ name, data: new Uint8Array([1]) });

describe('uniqueNames', () => {
  it('normalises names and numbers repeats within the run', () => {
    expect(uniqueNames([file('informe: marzo.xlsx'), file('informe marzo.xlsx'), file('  '), file('informe marzo.xlsx')])).toEqual([
      'informe marzo.xlsx',
      'informe marzo (2).xlsx',
      'resultado',
      'informe marzo (3).xlsx',
    ]);
  });

  it('avoids names already taken in the folder, ignoring case where the folder does', () => {
    expect(uniqueNames([file('Informe.pdf'), file('informe.PDF')], { taken: ['informe.pdf'] })).toEqual(['Informe.pdf', 'informe.PDF']);
    expect(uniqueNames([file('Informe.pdf'), file('informe.PDF')], { taken: ['informe.pdf'], ignoreCase: true })).toEqual(['Informe (2).pdf', 'informe (3).PDF']);
  });
});

describe('isRobotResult', () => {
  it('accepts a result with byte outputs and refuses anything else', () => {
    expect(isRobotResult({ result: 'Success', usageUnits: 2, outputs: [file('a.pdf')] })).toBe(true);
    expect(isRobotResult({ result: 'Bien', usageUnits: 2, outputs: [] })).toBe(false);
    expect(isRobotResult({ result: 'Success', usageUnits: -1, outputs: [] })).toBe(false);
    expect(isRobotResult({ result: 'Success', usageUnits: 1, outputs: [{ name: 'a', data: 'texto' }] })).toBe(false);
    expect(isRobotResult(null)).toBe(false);
  });
});
