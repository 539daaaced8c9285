import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import type { SelectionMode } from './CertificateSelector.tsx';
import { CertificateSelector } from './CertificateSelector.tsx';
import { elena, empresa } from './testData.ts';

function Harness({ mode }: { mode: SelectionMode }) {
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  return (
    <>
      <CertificateSelector certificates={[elena, empresa]} selected={selected} onChange={setSelected} mode={mode} />
      <output aria-label="elegidos">{[...selected].map((fingerprint) => fingerprint.slice(0, 1)).join(',')}</output>
    </>
  );
}

const chosen = () => screen.getByRole('status', { name: 'elegidos' }).textContent;

describe('CertificateSelector', () => {
  it('single mode: radios, choosing one clears the other, and no “Seleccionar todos”', () => {
    render(<Harness mode="single" />);
    expect(screen.queryByRole('checkbox', { name: 'Seleccionar todos' })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: elena.commonName }));
    expect(chosen()).toBe('1');
    fireEvent.click(screen.getByRole('radio', { name: empresa.commonName }));
    expect(chosen()).toBe('2');
    expect((screen.getByRole('radio', { name: elena.commonName }) as HTMLInputElement).checked).toBe(false);
  });

  it('multiple mode: each box adds, “Seleccionar todos” is mixed when some are chosen and toggles them all', () => {
    render(<Harness mode="multiple" />);
    const all = screen.getByRole('checkbox', { name: 'Seleccionar todos' }) as HTMLInputElement;
    fireEvent.click(screen.getByRole('checkbox', { name: elena.commonName }));
    expect(chosen()).toBe('1');
    expect(all.indeterminate).toBe(true);
    expect(screen.getByText('1 seleccionado')).toBeTruthy();
    fireEvent.click(all);
    expect(chosen()).toBe('1,2');
    expect(all.checked).toBe(true);
    fireEvent.click(all);
    expect(chosen()).toBe('');
  });
});
