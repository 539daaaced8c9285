import { describe, expect, it } from 'vitest';
import { CCC_INVALID_MESSAGE, CCC_KEY_MISSING_MESSAGE, CCC_LABEL_MISSING_MESSAGE, CCC_ROW_EMPTY_MESSAGE, cccRowProblems } from './ccc-rows.ts';

const CCC = '28123456742';

describe('cccRowProblems: each row says what it lacks', () => {
  it('names a missing name on its row, on the name input (it used to say only "Comprueba la información")', () => {
    expect(cccRowProblems([{ label: 'Sede', key: CCC }, { label: ' ', key: CCC }])).toEqual([null, { message: CCC_LABEL_MISSING_MESSAGE, input: 'label' }]);
    expect(CCC_LABEL_MISSING_MESSAGE).toContain('Falta el nombre');
  });

  it('names a missing CCC, a wrong CCC, and a blank row among others', () => {
    expect(cccRowProblems([{ label: 'Sede', key: '' }, { label: 'Taller', key: '28123456700' }, { label: '', key: '' }])).toEqual([
      { message: CCC_KEY_MISSING_MESSAGE, input: 'key' },
      { message: CCC_INVALID_MESSAGE, input: 'key' },
      { message: CCC_ROW_EMPTY_MESSAGE, input: 'both' },
    ]);
  });

  it('takes a single blank row as the cleared list, and good rows as they are', () => {
    expect(cccRowProblems([{ label: '', key: '' }])).toEqual([null]);
    expect(cccRowProblems([])).toEqual([]);
    expect(cccRowProblems([{ label: 'Sede', key: ` ${CCC} ` }])).toEqual([null]);
  });
});
