import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { PageHeader } from './PageHeader.tsx';

afterEach(cleanup);

describe('PageHeader', () => {
  it('shows the title as the page heading and the subtitle', () => {
    render(<PageHeader title="Procesador FIE" subtitle="Ficheros de SILTRA" />);
    expect(screen.getByRole('heading', { level: 1, name: 'Procesador FIE' })).toBeTruthy();
    expect(screen.getByText('Ficheros de SILTRA')).toBeTruthy();
  });

  it('has no back button unless asked for one', () => {
    render(<PageHeader title="Ayuda" />);
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('calls onBack from the "Volver" button', () => {
    const onBack = vi.fn();
    render(<PageHeader title="Empresas" onBack={onBack} />);
    fireEvent.click(screen.getByRole('button', { name: 'Volver' }));
    expect(onBack).toHaveBeenCalledTimes(1);
  });

  it('renders the actions slot', () => {
    render(<PageHeader title="Altas" actions={<button type="button">Nueva Alta</button>} />);
    expect(screen.getByRole('button', { name: 'Nueva Alta' })).toBeTruthy();
  });
});
