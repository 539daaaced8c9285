import { describe, expect, it } from 'vitest';
import { document, entry } from './test/renderFie.tsx';
import { entryDates, flattenRows, formatCcc, formatDay, newestFirst, selectableIds } from './fieRows.ts';

describe('fieRows', () => {
  it('orders documents newest first, by day and then by upload time', () => {
    const a = document({ _id: 'a', date: '2025-01-10', createdAt: '2025-01-10T08:00:00.000Z' });
    const b = document({ _id: 'b', date: '2025-02-01', createdAt: '2025-02-01T08:00:00.000Z' });
    const c = document({ _id: 'c', date: '2025-02-01', createdAt: '2025-02-02T08:00:00.000Z' });
    expect(newestFirst([a, b, c]).map((item) => item._id)).toEqual(['c', 'b', 'a']);
  });

  it('flattens headers and the entries of the open documents only', () => {
    const open = document({ _id: 'open', entries: [entry({ _id: 'x' }), entry({ _id: 'y', disabled: true, type: 'nac' })] });
    const closed = document({ _id: 'closed', entries: [entry({ _id: 'z' })] });
    expect(flattenRows([open, closed], (id) => id === 'open').map((row) => row.key)).toEqual(['d:open', 'e:open:x', 'e:open:y', 'd:closed']);
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
