import { describe, expect, it, vi } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { RouteErrorBoundary } from './RouteError.tsx';

function Broken(): never {
  throw new Error('No se pudo cargar el módulo');
}

describe('RouteErrorBoundary', () => {
  it('shows the error page in place of a screen that throws, and the screen again once the path changes', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // React reports the caught error
    let go: (path: string) => void = () => undefined;
    function Harness() {
      const [path, setPath] = useState('/roto');
      go = setPath;
      return (
        <RouteErrorBoundary resetKey={path}>
          {path === '/roto' ? <Broken /> : <p>Pantalla</p>}
        </RouteErrorBoundary>
      );
    }
    render(<Harness />);
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('Algo ha fallado');
    expect(alert.textContent).toContain('No se pudo cargar el módulo');
    expect(screen.getByRole('button', { name: 'Volver a cargar' })).toBeTruthy();

    act(() => go('/otra'));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('Pantalla')).toBeTruthy();
    vi.restoreAllMocks();
  });
});
