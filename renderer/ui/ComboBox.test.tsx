import { describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { ComboBox, SEARCHABLE_OPTIONS_THRESHOLD } from './ComboBox.tsx';

const provinces = [
  { value: '28', label: 'Madrid' },
  { value: '08', label: 'Barcelona' },
  { value: '29', label: 'Málaga' },
  { value: '41', label: 'Sevilla' },
  { value: '46', label: 'Valencia' },
  { value: '30', label: 'Murcia' },
  { value: '15', label: 'A Coruña', disabled: true },
];

function Harness({ onChange }: { onChange: (value: string | null) => void }) {
  const [value, setValue] = useState<string | null>(null);
  return (
    <ComboBox
      label="Provincia"
      options={provinces}
      value={value}
      onChange={(next) => {
        onChange(next);
        setValue(next);
      }}
    />
  );
}

const optionNames = () => screen.getAllByRole('option').map((option) => option.textContent);

describe('ComboBox', () => {
  it('is what a choice of more than 5 options uses (spec §5)', () => {
    expect(SEARCHABLE_OPTIONS_THRESHOLD).toBe(5);
    expect(provinces.length).toBeGreaterThan(SEARCHABLE_OPTIONS_THRESHOLD);
  });

  it('filters as the user types (accents ignored), moves with arrows and chooses with Enter', async () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const input = screen.getByRole('combobox', { name: 'Provincia' });
    act(() => input.focus());
    fireEvent.change(input, { target: { value: 'ma' } });
    await screen.findByRole('listbox');
    // 'ma' matches Madrid and Málaga, not the others.
    expect(optionNames()).toEqual(['Madrid', 'Málaga']);
    fireEvent.change(input, { target: { value: 'malaga' } });
    expect(optionNames()).toEqual(['Málaga']);
    fireEvent.change(input, { target: { value: 'ma' } });

    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    const active = input.getAttribute('aria-activedescendant');
    expect(active && document.getElementById(active)?.textContent).toBe('Málaga');
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith('29');
    await waitFor(() => expect(screen.queryByRole('listbox')).toBeNull());
    expect((input as HTMLInputElement).value).toBe('Málaga');
  });

  it('says when nothing matches, and Escape puts back the chosen text', async () => {
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const input = screen.getByRole('combobox', { name: 'Provincia' });
    act(() => input.focus());
    fireEvent.change(input, { target: { value: 'sev' } });
    await screen.findByRole('listbox');
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(onChange).toHaveBeenLastCalledWith('41');

    fireEvent.change(input, { target: { value: 'zzz' } });
    expect(await screen.findByText('No hay resultados para tu búsqueda')).toBeTruthy();
    fireEvent.keyDown(input, { key: 'Escape' });
    await waitFor(() => expect((input as HTMLInputElement).value).toBe('Sevilla'));
  });
});
