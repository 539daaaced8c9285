import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import type { SubscriptionUsage } from '#shared/domain/subscription.ts';
import { SubscriptionStatusCard } from './SubscriptionStatusCard.tsx';
import type { SubscriptionStatusCardProps } from './SubscriptionStatusCard.tsx';

afterEach(cleanup);

const usage: SubscriptionUsage = {
  active: true, trialing: false, name: 'Plan Pro', balance: 500, cancelled: false, usageLimit: 2000,
  usedSlans: 850, slansPercentage: 42.5, excededSlans: 0, extraPrice: 0, nextPaymentDate: null, paymentFailed: false,
};

const renderCard = (props: Partial<SubscriptionStatusCardProps> = {}) =>
  render(
    <MemoryRouter>
      <SubscriptionStatusCard usage={usage} loading={false} failed={false} {...props} />
    </MemoryRouter>,
  );

describe('SubscriptionStatusCard', () => {
  it('shows a spinner while loading, not the figures', () => {
    renderCard({ usage: undefined, loading: true });
    expect(screen.getByRole('status').textContent).toContain('Cargando');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('says the subscription could not be loaded when the request failed', () => {
    renderCard({ failed: true });
    expect(screen.getByText('No se ha podido cargar tu suscripción.')).toBeTruthy();
    expect(screen.queryByText('Plan Pro')).toBeNull();
  });

  it('marks a trial next to the plan name', () => {
    renderCard({ usage: { ...usage, trialing: true } });
    expect(screen.getByText('Plan Pro').textContent).toBe('Plan Pro · En periodo de prueba');
  });

  it('shows no next payment during a trial, even when a date is known', () => {
    renderCard({ usage: { ...usage, trialing: true, nextPaymentDate: '2025-03-01T10:00:00.000Z' } });
    expect(screen.queryByText('Próximo pago')).toBeNull();
    expect(screen.queryByText('01/03/2025')).toBeNull();
    cleanup();
    renderCard({ usage: { ...usage, nextPaymentDate: '2025-03-01T10:00:00.000Z' } });
    expect(screen.getByText('Próximo pago')).toBeTruthy();
  });

  it('rounds the usage into the bar and clamps it at 100', () => {
    renderCard();
    expect(screen.getByRole('progressbar', { name: 'Consumo del periodo' }).getAttribute('aria-valuenow')).toBe('43');
    cleanup();
    renderCard({ usage: { ...usage, slansPercentage: 130 } });
    expect(screen.getByRole('progressbar', { name: 'Consumo del periodo' }).getAttribute('aria-valuenow')).toBe('100');
  });

  it('adds the extra consumption line only over the limit, in the firm’s credit names and currency', () => {
    renderCard();
    expect(screen.queryByText('Consumo extra')).toBeNull();
    cleanup();
    renderCard({ usage: { ...usage, excededSlans: 150, extraPrice: 12.5 }, currencies: 'crédito|créditos', currency: 'EUR' });
    expect(screen.getByText('Consumo extra')).toBeTruthy();
    expect(screen.getByText('150 créditos · 12,50 €')).toBeTruthy();
    expect(screen.getByText('850 créditos de 2.000 créditos')).toBeTruthy();
  });

  it('links to Payments unless told not to', () => {
    renderCard();
    expect(screen.getByRole('link', { name: 'Ir a pagos' }).getAttribute('href')).toBe('/payments');
    cleanup();
    renderCard({ showPaymentsLink: false });
    expect(screen.queryByRole('link', { name: 'Ir a pagos' })).toBeNull();
  });
});
