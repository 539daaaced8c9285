import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { Table } from './Table.tsx';
import type { TableColumn } from './Table.tsx';

afterEach(cleanup);

interface Run {
  id: string;
  robot: string;
  cost: number | null;
  log: string;
}

const columns: TableColumn<Run>[] = [
  { key: 'robot', header: 'Robot', render: (run) => run.robot, sortValue: (run) => run.robot },
  { key: 'cost', header: 'Coste', render: (run) => run.cost ?? '—', sortValue: (run) => run.cost },
  { key: 'log', header: 'Registro', render: () => 'ver' },
];

const runs = (count: number): Run[] =>
  Array.from({ length: count }, (_, index) => ({ id: `r${index}`, robot: `Robot ${index + 1}`, cost: index, log: `Log ${index + 1}` }));

const bodyRows = () => within(screen.getAllByRole('rowgroup')[1] as HTMLElement).queryAllByRole('row');
const firstCells = () => bodyRows().map((row) => within(row).getAllByRole('cell')[0]?.textContent);

describe('Table', () => {
  it('keeps a hidden header for screen readers only', () => {
    const withActions: TableColumn<Run>[] = [...columns, { key: 'actions', header: 'Acciones', headerHidden: true, render: () => null }];
    render(<Table caption="Historial" columns={withActions} rows={runs(1)} rowKey={(run) => run.id} emptyMessage="Vacío" />);
    const header = screen.getByRole('columnheader', { name: 'Acciones' });
    expect(header.querySelector('.ui-visually-hidden')?.textContent).toBe('Acciones');
    expect(screen.getByRole('columnheader', { name: 'Registro' }).querySelector('.ui-visually-hidden')).toBeNull();
  });

  it('shows the empty message when there are no rows', () => {
    render(<Table caption="Historial" columns={columns} rows={[]} rowKey={(run) => run.id} emptyMessage="No se han encontrado registros" />);
    expect(screen.getByRole('table', { name: 'Historial' })).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'No se han encontrado registros' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Paginación' })).toBeNull();
  });

  it('pages 12 rows at a time by default', () => {
    render(<Table caption="Historial" columns={columns} rows={runs(30)} rowKey={(run) => run.id} emptyMessage="Vacío" />);
    expect(bodyRows()).toHaveLength(12);
    expect(screen.getByText('Página 1 de 3')).toBeTruthy();
    const previous = screen.getByRole('button', { name: 'Anterior' }) as HTMLButtonElement;
    expect(previous.disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(screen.getByText('Página 3 de 3')).toBeTruthy();
    expect(bodyRows()).toHaveLength(6);
    expect(firstCells()[0]).toBe('Robot 25');
    expect((screen.getByRole('button', { name: 'Siguiente' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('sorts by a column and reports it with aria-sort', () => {
    const rows = [
      { id: 'a', robot: 'Altas RED', cost: 3, log: '' },
      { id: 'b', robot: 'Bajas', cost: null, log: '' },
      { id: 'c', robot: 'Certificados', cost: 1, log: '' },
    ];
    render(<Table caption="Historial" columns={columns} rows={rows} rowKey={(run) => run.id} emptyMessage="Vacío" />);
    const costHeader = screen.getByRole('columnheader', { name: /Coste/ });
    expect(costHeader.getAttribute('aria-sort')).toBe('none');
    expect(screen.getByRole('columnheader', { name: 'Registro' }).hasAttribute('aria-sort')).toBe(false);

    fireEvent.click(within(costHeader).getByRole('button'));
    expect(costHeader.getAttribute('aria-sort')).toBe('ascending');
    expect(firstCells()).toEqual(['Certificados', 'Altas RED', 'Bajas']);

    fireEvent.click(within(costHeader).getByRole('button'));
    expect(costHeader.getAttribute('aria-sort')).toBe('descending');
    // Rows without a cost stay last in both directions.
    expect(firstCells()).toEqual(['Altas RED', 'Certificados', 'Bajas']);
  });

  it('expands a row to show its detail', () => {
    render(
      <Table caption="Historial" columns={columns} rows={runs(2)} rowKey={(run) => run.id} emptyMessage="Vacío" renderExpanded={(run) => <pre>{run.log}</pre>} />,
    );
    expect(screen.queryByText('Log 1')).toBeNull();
    const [firstToggle] = screen.getAllByRole('button', { name: 'Mostrar detalle' });
    fireEvent.click(firstToggle as HTMLElement);
    expect(screen.getByText('Log 1')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ocultar detalle' }).getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: 'Ocultar detalle' }));
    expect(screen.queryByText('Log 1')).toBeNull();
  });

  it('shows a page the server cut as it comes and asks the caller for the next one', () => {
    const onPageChange = vi.fn();
    // 14 rows on "page 2 of 5": a client-side pager would cut them to 12 and say 'Página 1 de 2'.
    render(
      <Table caption="Historial" columns={columns} rows={runs(14)} rowKey={(run) => run.id} emptyMessage="Vacío" serverPages={{ page: 1, pageCount: 5, onPageChange }} />,
    );
    expect(bodyRows()).toHaveLength(14);
    expect(screen.getByText('Página 2 de 5')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(onPageChange).toHaveBeenLastCalledWith(2);
    fireEvent.click(screen.getByRole('button', { name: 'Anterior' }));
    expect(onPageChange).toHaveBeenLastCalledWith(0);
    // The table does not move by itself: the caller decides which rows page 3 holds.
    expect(screen.getByText('Página 2 de 5')).toBeTruthy();
  });

  it('keeps only the rows that contain every searched word, back on page 1', () => {
    const { rerender } = render(<Table caption="Historial" columns={columns} rows={runs(30)} rowKey={(run) => run.id} emptyMessage="Vacío" />);
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    rerender(<Table caption="Historial" columns={columns} rows={runs(30)} rowKey={(run) => run.id} emptyMessage="Vacío" search="robot 2" />);
    // 'robot' everywhere; '2' in the name (2, 12, 20..29) or the cost (Robot 3, 13, 21..30): 15 rows.
    expect(screen.getByText('Página 1 de 2')).toBeTruthy();
    expect(firstCells()).toEqual(['Robot 2', 'Robot 3', 'Robot 12', 'Robot 13', ...Array.from({ length: 8 }, (_, index) => `Robot ${20 + index}`)]);
    rerender(<Table caption="Historial" columns={columns} rows={runs(30)} rowKey={(run) => run.id} emptyMessage="Sin resultados" search="ninguno" />);
    expect(screen.getByRole('cell', { name: 'Sin resultados' })).toBeTruthy();
  });

  it('renders only the rows in view of a long virtual list, and follows the sort', () => {
    // jsdom has no layout: give the scroll box the height the CSS would.
    const height = vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(400);
    try {
      render(<Table caption="Historial" columns={columns} rows={runs(10_000)} rowKey={(run) => run.id} emptyMessage="Vacío" virtual={{ height: 400, rowHeight: 40 }} />);
      const table = screen.getByRole('table', { name: 'Historial' });
      expect(table.getAttribute('aria-rowcount')).toBe('10001');
      const shown = bodyRows().filter((row) => row.getAttribute('aria-hidden') !== 'true');
      // 10 rows fit in 400 px, plus the overscan: nowhere near 10,000.
      expect(shown.length).toBeGreaterThanOrEqual(10);
      expect(shown.length).toBeLessThan(30);
      expect(screen.queryByRole('navigation', { name: 'Paginación' })).toBeNull();
      fireEvent.click(within(screen.getByRole('columnheader', { name: /Coste/ })).getByRole('button'));
      fireEvent.click(within(screen.getByRole('columnheader', { name: /Coste/ })).getByRole('button'));
      expect(firstCells()[0]).toBe('Robot 10000');
    } finally {
      height.mockRestore();
    }
  });
});
