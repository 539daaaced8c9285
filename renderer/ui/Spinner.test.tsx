import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { LoadingImage, Spinner } from './Spinner.tsx';

afterEach(cleanup);

describe('Spinner and LoadingImage', () => {
  it('announces loading in Spanish by default', () => {
    render(<Spinner />);
    expect(screen.getByRole('status').textContent).toBe('Cargando…');
  });

  it('is silent when decorative', () => {
    render(<Spinner decorative />);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('shows and announces what is loading', () => {
    render(<LoadingImage caption="Cargando robots" />);
    expect(screen.getByRole('status').textContent).toBe('Cargando robots');
    expect(screen.getByText('Cargando robots', { selector: 'p' })).toBeTruthy();
  });
});
