import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SearchInput } from './SearchInput.tsx';

afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe('SearchInput', () => {
  beforeEach(() => vi.useFakeTimers());

  it('reports every change at once without a debounce', () => {
    const onSearch = vi.fn();
    render(<SearchInput label="Buscar robot" onSearch={onSearch} />);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Buscar robot' }), { target: { value: 'sil' } });
    expect(onSearch).toHaveBeenCalledWith('sil');
  });

  it('with a debounce, reports only the last text after the quiet period', () => {
    const onSearch = vi.fn();
    render(<SearchInput onSearch={onSearch} debounceMs={400} />);
    const input = screen.getByRole('searchbox', { name: 'Buscar' });
    fireEvent.change(input, { target: { value: 'a' } });
    act(() => vi.advanceTimersByTime(200));
    fireEvent.change(input, { target: { value: 'ab' } });
    act(() => vi.advanceTimersByTime(399));
    expect(onSearch).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onSearch).toHaveBeenCalledTimes(1);
    expect(onSearch).toHaveBeenCalledWith('ab');
  });

  it('clears at once from the clear button', () => {
    const onSearch = vi.fn();
    render(<SearchInput onSearch={onSearch} debounceMs={400} value="dehu" />);
    fireEvent.click(screen.getByRole('button', { name: 'Borrar búsqueda' }));
    expect(onSearch).toHaveBeenCalledWith('');
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('');
    act(() => vi.advanceTimersByTime(1000));
    expect(onSearch).toHaveBeenCalledTimes(1);
  });

  it('follows a value the parent changes, dropping a search still waiting for its quiet period', () => {
    const onSearch = vi.fn();
    const { rerender } = render(<SearchInput onSearch={onSearch} debounceMs={400} value="dehu" />);
    const input = screen.getByRole('searchbox') as HTMLInputElement;
    fireEvent.change(input, { target: { value: 'dehux' } });
    rerender(<SearchInput onSearch={onSearch} debounceMs={400} value="" />);
    expect(input.value).toBe('');
    act(() => vi.advanceTimersByTime(1000));
    expect(onSearch).not.toHaveBeenCalled();
  });
});
