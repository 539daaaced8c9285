import { describe, expect, it } from 'vitest';
import { decodeFieText } from '#shared/fie/text.ts';
import { sampleFieChunks } from '#shared/fie/sample.ts';
import type { FieFields } from '#shared/fie/types.ts';
import { parseFields, storedFields } from './entries.ts';

describe('stored FIE fields', () => {
  it('read back into the decoder’s record exactly, at a fraction of its size', () => {
    const document = decodeFieText([...sampleFieChunks(300)].join(''));
    expect(document.entries).toHaveLength(300);
    let whole = 0;
    let stored = 0;
    for (const entry of document.entries) {
      const json = storedFields(entry.fields);
      expect(parseFields(json)).toEqual(entry.fields);
      whole += JSON.stringify(entry.fields).length;
      stored += json.length;
    }
    expect(stored).toBeLessThan(whole / 4);
  });

  it('keeps whole a field that does not read back from its text, and a code the catalogue lacks', () => {
    const fields: FieFields = {
      1020: { label: 'Fecha de baja', value: '20250110', normalizedValue: '2025-01-10', section: 'DIT', ref: 'leaveStart' },
      9999: { label: 'Otro', value: 'X', normalizedValue: 'X', section: 'DIT', ref: 'other' },
    };
    // The label differs from the catalogue's: kept as it came.
    const odd = { ...fields, 670: { label: 'NIF a mano', value: '12345678Z', normalizedValue: '12345678Z', section: 'TRA' as const, ref: 'nif' } };
    expect(parseFields(storedFields(odd))).toEqual(odd);
    expect(JSON.parse(storedFields(odd))[9999]).toEqual(fields[9999]);
  });
});
