import { describe, expect, it } from 'vitest';
import { document, entry } from './test/renderFie.tsx';
import { entryDates, flattenRows, formatCcc, formatDay, listedDocuments, selectableIds } from './fieRows.ts';
import type { ListedDocument } from './fieRows.ts';

describe('fieRows', () => {
  it('puts each page\'s entries under the documents the first page heads, in order', () => {
    const { entries: _a, ...a } = document({ _id: 'a' });
    const { entries: _b, ...b } = document({ _id: 'b' });
    const pages = [
      { documents: [{ ...a, matches: 2 }, { ...b, matches: 1 }], entries: [entry({ _id: 'x', fieId: 'a' })], total: 3, documentCount: 2, nextOffset: 1 },
      { entries: [entry({ _id: 'y', fieId: 'a' }), entry({ _id: 'z', fieId: 'b' })], total: 3, documentCount: 2, nextOffset: null },
    ];
    expect(listedDocuments(pages).map((listed) => [listed._id, listed.entries.map((item) => item._id)])).toEqual([
      ['a', ['x', 'y']],
      ['b', ['z']],
    ]);
    expect(listedDocuments([])).toEqual([]);
  });

  it('flattens headers and the loaded entries of the open documents, and a row for those still to load', () => {
    const listed = (id: string, entries: ReturnType<typeof entry>[], matches: number): ListedDocument => ({ ...document({ _id: id, entries }), matches });
    const open = listed('open', [entry({ _id: 'x' }), entry({ _id: 'y', disabled: true, type: 'nac' })], 2);
    const closed = listed('closed', [entry({ _id: 'z' })], 1);
    const partial = listed('partial', [entry({ _id: 'w' })], 5);
    expect(flattenRows([open, closed, partial], (id) => id !== 'closed').map((row) => row.key)).toEqual(['d:open', 'e:open:x', 'e:open:y', 'd:closed', 'd:partial', 'e:partial:w', 'm:partial']);
    expect(flattenRows([partial], () => true).at(-1)).toMatchObject({ kind: 'more', missing: 4 });
    // Closed or not, every enabled entry can be chosen; the disabled type never.
    expect(selectableIds([open, closed])).toEqual(['x', 'z']);
  });

  it('formats days, CCCs and the dates an entry shows', () => {
    expect(formatDay('2025-02-03')).toBe('03/02/2025');
    expect(formatDay('2025-02-03T10:00:00.000Z')).toBe('03/02/2025');
    expect(formatDay(null)).toBe('—');
    expect(formatCcc('28123456789')).toBe('28/1234567/89');
    expect(formatCcc('28/1234567/89')).toBe('28/1234567/89');
    expect(entryDates(entry({ leaveStart: '2025-02-03', leaveEnd: '2025-02-05' }))).toEqual([
      { label: 'Baja', value: '03/02/2025' },
      { label: 'Alta', value: '05/02/2025' },
    ]);
    expect(entryDates(entry({ leaveStart: null, leaveEnd: null, registrationDate: '2025-03-01' }))).toEqual([{ label: 'Registro', value: '01/03/2025' }]);
  });
});
