import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { EmptyState } from './EmptyState.tsx';
import { IconInbox } from './icons.tsx';

afterEach(cleanup);

describe('EmptyState', () => {
  it('shows title, text and action', () => {
    render(
      <EmptyState
        icon={<IconInbox />}
        title="Sin empresas"
        text="Todavía no tienes ninguna empresa registrada."
        action={<button type="button">Nueva Empresa</button>}
      />,
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Sin empresas' })).toBeTruthy();
    expect(screen.getByText('Todavía no tienes ninguna empresa registrada.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Nueva Empresa' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Sin empresas' })).toBeTruthy();
  });

  it('draws its icon as a hidden svg, so the heading stays the only name', () => {
    const { container } = render(<EmptyState icon={<IconInbox />} title="Sin avisos" />);
    expect(container.querySelector('.ui-empty-state__icon svg')?.getAttribute('aria-hidden')).toBe('true');
    expect(screen.getByRole('region', { name: 'Sin avisos' }).textContent).toBe('Sin avisos');
  });

  it('can sit lower in the outline', () => {
    render(<EmptyState title="Pendientes" headingLevel={3} />);
    expect(screen.getByRole('heading', { level: 3, name: 'Pendientes' })).toBeTruthy();
  });
});
