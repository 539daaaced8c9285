import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { PAGE_JUMP_FROM, Pagination } from './Pagination.tsx';

afterEach(cleanup);

describe('Pagination', () => {
  it('goes a page back or forward, and says which page of how many', () => {
    const onPageChange = vi.fn();
    render(<Pagination page={0} pageCount={3} onPageChange={onPageChange} />);
    expect(screen.getByText('Página 1 de 3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Anterior' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(onPageChange).toHaveBeenCalledWith(1);
    // A few pages: no field to jump.
    expect(screen.queryByRole('spinbutton', { name: 'Ir a la página' })).toBeNull();
  });

  it('with many pages, goes straight to the one typed (Enter or "Ir"), a number past either end to that end (issue 43, 5)', () => {
    const onPageChange = vi.fn();
    render(<Pagination page={0} pageCount={661} onPageChange={onPageChange} />);
    expect(PAGE_JUMP_FROM).toBeLessThanOrEqual(661);
    const field = screen.getByRole('spinbutton', { name: 'Ir a la página' }) as HTMLInputElement;
    const go = screen.getByRole('button', { name: 'Ir' }) as HTMLButtonElement;
    expect(go.disabled).toBe(true);

    fireEvent.change(field, { target: { value: '330' } });
    expect(go.disabled).toBe(false);
    // Enter in the field submits its form.
    fireEvent.submit(field.closest('form') as HTMLFormElement);
    expect(onPageChange).toHaveBeenLastCalledWith(329);
    expect(field.value).toBe('');

    fireEvent.change(field, { target: { value: '9999' } });
    fireEvent.click(go);
    expect(onPageChange).toHaveBeenLastCalledWith(660);
    fireEvent.change(field, { target: { value: '0' } });
    fireEvent.click(go);
    expect(onPageChange).toHaveBeenLastCalledWith(0);
    expect(onPageChange).toHaveBeenCalledTimes(3);
  });
});
