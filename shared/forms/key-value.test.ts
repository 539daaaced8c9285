import { describe, expect, it } from 'vitest';
import {
  addKeyValueRow, areKeyValueRowsValid, keyValueRowErrors, keyValueRowsToSave, removeKeyValueRow, updateKeyValueRow,
} from './key-value.ts';

const row = (label: string, key: string) => ({ label, key });

describe('key/value rows', () => {
  it('needs a label and a key on every row', () => {
    expect(keyValueRowErrors([row('Sede', '28255627528'), row('', '123'), row('Almacén', ' ')])).toEqual([
      null, 'Comprueba la información', 'Comprueba la información',
    ]);
    expect(areKeyValueRowsValid([row('Sede', '1')])).toBe(true);
  });

  it('accepts a single cleared row as an empty list, but not a blank row among others', () => {
    expect(areKeyValueRowsValid([row('', '')])).toBe(true);
    expect(areKeyValueRowsValid([row('Sede', '1'), row('', '')])).toBe(false);
  });

  it('clears the last remaining row instead of removing it', () => {
    expect(removeKeyValueRow([row('Sede', '1')], 0)).toEqual([row('', '')]);
    expect(removeKeyValueRow([row('a', '1'), row('b', '2')], 0)).toEqual([row('b', '2')]);
  });

  it('adds and updates rows without changing the input', () => {
    const rows = [row('a', '1')];
    expect(addKeyValueRow(rows)).toEqual([row('a', '1'), row('', '')]);
    expect(updateKeyValueRow(rows, 0, { key: '2' })).toEqual([row('a', '2')]);
    expect(rows).toEqual([row('a', '1')]);
  });

  it('saves trimmed rows without blank ones', () => {
    expect(keyValueRowsToSave([row(' Sede ', ' 1 '), row('', '')])).toEqual([row('Sede', '1')]);
  });
});
