import { afterEach, describe, expect, it } from 'vitest';
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
});
