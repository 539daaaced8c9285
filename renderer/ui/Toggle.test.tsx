import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { Toggle } from './Toggle.tsx';

afterEach(cleanup);

function Harness({ disabled = false }: { disabled?: boolean }) {
  const [on, setOn] = useState(false);
  return <Toggle label="Notificaciones" description="Revisa la DEHÚ cada 10 minutos" checked={on} onChange={setOn} disabled={disabled} />;
}

describe('Toggle', () => {
  it('is a labelled switch that flips on click', () => {
    render(<Harness />);
    const toggle = screen.getByRole('switch', { name: 'Notificaciones' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('false');
  });

  it('flips when its label is clicked too', () => {
    render(<Harness />);
    const toggle = screen.getByRole('switch', { name: 'Notificaciones' });
    fireEvent.click(screen.getByText('Notificaciones'));
    expect(toggle.getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByText('Notificaciones'));
    expect(toggle.getAttribute('aria-checked')).toBe('false');
  });

  it('is described by its help text', () => {
    render(<Harness />);
    const toggle = screen.getByRole('switch');
    const described = document.getElementById(toggle.getAttribute('aria-describedby') ?? '');
    expect(described?.textContent).toBe('Revisa la DEHÚ cada 10 minutos');
  });

  it('does not change while disabled', () => {
    render(<Harness disabled />);
    const toggle = screen.getByRole('switch');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-checked')).toBe('false');
  });
});
