import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ErrorBanner } from './ErrorBanner.tsx';

afterEach(cleanup);

describe('ErrorBanner', () => {
  it('shows the message when data has an error and a message', () => {
    render(<ErrorBanner data={{ hasError: true, msg: 'No se ha podido actualizar' }} />);
    expect(screen.getByRole('alert').textContent).toContain('No se ha podido actualizar');
  });

  it.each([
    ['no data', undefined],
    ['no error', { hasError: false, msg: 'Algo' }],
    ['an error without message', { hasError: true, msg: '' }],
  ])('shows nothing with %s', (_case, data) => {
    render(<ErrorBanner data={data} />);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('can be dismissed', () => {
    const onDismiss = vi.fn();
    render(<ErrorBanner data={{ hasError: true, msg: 'Error' }} onDismiss={onDismiss} />);
    fireEvent.click(screen.getByRole('button', { name: 'Cerrar' }));
    expect(onDismiss).toHaveBeenCalledTimes(1);
  });
});
