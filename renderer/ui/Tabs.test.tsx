import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { SegmentedFilter, Tabs } from './Tabs.tsx';

afterEach(cleanup);

type View = 'notifications' | 'config' | 'archive';
const views = [
  { value: 'notifications', label: 'Notificaciones' },
  { value: 'config', label: 'Configuración' },
  { value: 'archive', label: 'Archivo', disabled: true },
] as const;

function TabsHarness() {
  const [view, setView] = useState<View>('notifications');
  return (
    <Tabs label="Vista" tabs={views} value={view} onChange={setView}>
      {view === 'notifications' ? 'Lista de notificaciones' : 'Elige certificados'}
    </Tabs>
  );
}

type Filter = 'all' | 'manual' | 'scheduled';
function FilterHarness() {
  const [filter, setFilter] = useState<Filter>('all');
  return (
    <SegmentedFilter
      label="Tipo de lanzamiento"
      value={filter}
      onChange={setFilter}
      options={[
        { value: 'all', label: 'Todos' },
        { value: 'manual', label: 'Manuales' },
        { value: 'scheduled', label: 'Programados y remotos' },
      ]}
    />
  );
}

describe('Tabs', () => {
  it('shows the selected tab panel and switches on click', () => {
    render(<TabsHarness />);
    expect(screen.getByRole('tab', { name: 'Notificaciones' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('tabpanel', { name: 'Notificaciones' }).textContent).toBe('Lista de notificaciones');
    fireEvent.click(screen.getByRole('tab', { name: 'Configuración' }));
    expect(screen.getByRole('tabpanel', { name: 'Configuración' }).textContent).toBe('Elige certificados');
  });

  it('points the selected tab at the panel shown, also after a switch (aria-controls names an element that exists)', () => {
    render(<TabsHarness />);
    fireEvent.click(screen.getByRole('tab', { name: 'Configuración' }));
    const controls = screen.getByRole('tab', { name: 'Configuración' }).getAttribute('aria-controls');
    expect(controls).toBeTruthy();
    expect(screen.getByRole('tabpanel').id).toBe(controls);
  });

  it('moves with arrow keys, skipping disabled tabs and wrapping', () => {
    render(<TabsHarness />);
    const first = screen.getByRole('tab', { name: 'Notificaciones' });
    act(() => first.focus());
    fireEvent.keyDown(first, { key: 'ArrowRight' });
    const config = screen.getByRole('tab', { name: 'Configuración' });
    expect(config.getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(config);
    fireEvent.keyDown(config, { key: 'ArrowRight' });
    expect(screen.getByRole('tab', { name: 'Notificaciones' }).getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(document.activeElement ?? first, { key: 'End' });
    expect(screen.getByRole('tab', { name: 'Configuración' }).getAttribute('aria-selected')).toBe('true');
  });
});

describe('SegmentedFilter', () => {
  it('is a radio group with one checked option', () => {
    render(<FilterHarness />);
    screen.getByRole('radiogroup', { name: 'Tipo de lanzamiento' });
    expect(screen.getByRole('radio', { name: 'Todos' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByRole('radio', { name: 'Manuales' }));
    expect(screen.getByRole('radio', { name: 'Manuales' }).getAttribute('aria-checked')).toBe('true');
    expect(screen.getByRole('radio', { name: 'Todos' }).getAttribute('aria-checked')).toBe('false');
  });

  it('supports Home, End and ArrowLeft', () => {
    render(<FilterHarness />);
    fireEvent.keyDown(screen.getByRole('radio', { name: 'Todos' }), { key: 'End' });
    expect(screen.getByRole('radio', { name: 'Programados y remotos' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.keyDown(screen.getByRole('radio', { name: 'Programados y remotos' }), { key: 'ArrowLeft' });
    expect(screen.getByRole('radio', { name: 'Manuales' }).getAttribute('aria-checked')).toBe('true');
    fireEvent.keyDown(screen.getByRole('radio', { name: 'Manuales' }), { key: 'Home' });
    expect(screen.getByRole('radio', { name: 'Todos' }).getAttribute('aria-checked')).toBe('true');
  });
});
