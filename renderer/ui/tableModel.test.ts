import { describe, expect, it } from 'vitest';
import { createTableModel, searchText, textSortKey } from './tableModel.ts';
import type { ColumnSpec } from './tableModel.ts';

interface Entry {
  name: string;
  n: number | null;
}

const columns: ColumnSpec<Entry>[] = [
  { key: 'name', header: 'Nombre', sortValue: (row) => row.name },
  { key: 'n', header: 'Número', sortValue: (row) => row.n },
];

const names = (rows: { original: Entry }[]) => rows.map((row) => row.original.name);

describe('table model', () => {
  it('builds text sort keys in the same order as the Spanish collator', () => {
    const words = ['Ñandú', 'nube', 'Oca', 'ÁLAMO', 'alamo', 'Robot 10', 'Robot 2', 'robot 007', 'Zapato', 'zona', 'Muñoz', 'Munoz', 'Murcia', 'Canción', 'cancion 3'];
    const collator = new Intl.Collator('es', { sensitivity: 'base', numeric: true });
    const byKey = [...words].sort((a, b) => (textSortKey(a) < textSortKey(b) ? -1 : textSortKey(a) > textSortKey(b) ? 1 : 0));
    const byCollator = [...words].sort((a, b) => collator.compare(a, b));
    // Equal keys (álamo/ÁLAMO) may keep either order; compare the keys' sequence, not the words'.
    expect(byKey.map(textSortKey)).toEqual(byCollator.map(textSortKey));
    expect(textSortKey('álamo')).toBe(textSortKey('Alamo'));
  });

  it('sorts text the Spanish way and dates by time', () => {
    const text = createTableModel({
      rows: [{ name: 'Robot 10', n: 1 }, { name: 'robot 2', n: 2 }, { name: 'Ñu', n: 3 }, { name: 'Oca', n: 4 }, { name: 'nube', n: 5 }],
      columns,
      sort: { key: 'name', direction: 'ascending' },
    });
    expect(names(text.getSortedRowModel().rows)).toEqual(['nube', 'Ñu', 'Oca', 'robot 2', 'Robot 10']);
    const dated = [
      { name: 'b', at: new Date('2024-01-02') },
      { name: 'a', at: new Date('2024-01-01') },
    ];
    const table = createTableModel({ rows: dated, columns: [{ key: 'at', header: 'Fecha', sortValue: (row) => row.at }], sort: { key: 'at', direction: 'ascending' } });
    expect(table.getSortedRowModel().rows.map((row) => row.original.name)).toEqual(['a', 'b']);
  });

  it('keeps blanks last and ties in their original order, in both directions', () => {
    const rows: Entry[] = [
      { name: 'b', n: 1 },
      { name: 'blank', n: null },
      { name: 'a', n: 1 },
      { name: 'c', n: 0 },
    ];
    const descending = createTableModel({ rows, columns, sort: { key: 'n', direction: 'descending' } });
    expect(names(descending.getSortedRowModel().rows)).toEqual(['b', 'a', 'c', 'blank']);
    const ascending = createTableModel({ rows, columns, sort: { key: 'n', direction: 'ascending' } });
    expect(names(ascending.getSortedRowModel().rows)).toEqual(['c', 'b', 'a', 'blank']);
  });

  it('pages rows, with at least one page', () => {
    const rows = Array.from({ length: 25 }, (_, index) => ({ name: `R${index}`, n: index }));
    const table = createTableModel({ rows, columns, pageSize: 12 });
    expect(table.getPageCount()).toBe(3);
    table.setPageIndex(2);
    expect(names(table.getPaginationRowModel().rows)).toEqual(['R24']);
    expect(createTableModel({ rows: [], columns }).getPageCount()).toBe(0);
  });

  it('searches every word, ignoring accents and case, over the searchable columns', () => {
    const rows: Entry[] = [
      { name: 'GARCÍA MUÑOZ', n: 10 },
      { name: 'García López', n: 11 },
      { name: 'Pérez', n: 12 },
    ];
    expect(searchText('GARCÍA')).toBe('garcia');
    expect(names(createTableModel({ rows, columns, search: 'garcia' }).getFilteredRowModel().rows)).toEqual(['GARCÍA MUÑOZ', 'García López']);
    expect(names(createTableModel({ rows, columns, search: 'garcia munoz' }).getFilteredRowModel().rows)).toEqual(['GARCÍA MUÑOZ']);
    expect(names(createTableModel({ rows, columns, search: '12' }).getFilteredRowModel().rows)).toEqual(['Pérez']);
    expect(createTableModel({ rows, columns, search: '  ' }).getFilteredRowModel().rows).toHaveLength(3);
    const table = createTableModel({ rows, columns });
    table.setGlobalFilter('lopez');
    expect(names(table.getFilteredRowModel().rows)).toEqual(['García López']);
  });
});
