import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeFie } from '#shared/fie/index.ts';

const FIXTURES = join(import.meta.dirname, '..', 'shared', 'fie', 'fixtures');

/** Inputs that once made decodeFie throw, found by `npm run fuzz:fie`. */
describe('fuzz:fie regressions', () => {
  it('ignores an .xlsx whose damaged cells SheetJS cannot turn into rows (seed 116488931)', () => {
    const bytes = new Uint8Array(readFileSync(join(FIXTURES, 'damaged-cell-type.xlsx')));
    const document = decodeFie(bytes);
    expect(document).toMatchObject({ format: 'spreadsheet', ignored: true, reason: 'No se ha podido leer la hoja de cálculo' });
  });
});
