import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encodeFieFile } from '#shared/fie/encode.ts';
import { FieTextStream } from '#shared/fie/stream.ts';
import { decodeFieText } from '#shared/fie/text.ts';
import { sampleFieChunks } from '#shared/fie/sample.ts';
import type { FieFields } from '#shared/fie/types.ts';
import { entryFacts, entryFactsOf, entryKey, parseFields, storedFields, type EntryFacts } from './entries.ts';

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

describe('an entry’s row from the text reader’s slot view', () => {
  it('is the row its fields record gives: key, columns and stored fields, odd values included', () => {
    const odd = encodeFieFile({
      date: '20250115',
      entries: [
        { 310: '28123456789', 530: 'TALLERES   ORTEGA  SA', 670: '00000012345678Z', 820: 'PEÑA', 840: 'MARÍA', 1020: '20251399', 1060: '00X4', 1090: '7', 1150: '20250112' },
        { 320: '0111', 670: '00000000000000', 1020: '20250110', 1090: '1', 1170: 'S', 1173: '2' },
      ],
    });
    const text = [...sampleFieChunks(200)].join('');
    for (const file of [text, odd]) {
      const fromRecords = decodeFieText(file).entries.map((entry) => entryFacts(entry.fields));
      const fromSlots: EntryFacts[] = [];
      const stream = new FieTextStream({ slots: (entry) => void fromSlots.push(entryFactsOf(entry)) });
      stream.write(file);
      stream.end();
      expect(fromSlots).toEqual(fromRecords);
    }
    // The key is the one entries were stored under before the view: sha256 of the pairs as JSON.
    const [first] = decodeFieText(odd).entries;
    const pairs = Object.entries(first?.fields ?? {}).filter(([code]) => code !== '100').map(([code, field]) => [Number(code), field.value]);
    expect(entryKey(first?.fields ?? {})).toBe(createHash('sha256').update(JSON.stringify(pairs), 'utf8').digest('hex'));
    expect(decodeFieText(odd).diagnostics.map((diagnostic) => diagnostic.kind)).toContain('invalid-value');
  });
});
