import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { InfoCard } from './InfoCard.tsx';

afterEach(cleanup);

describe('InfoCard', () => {
  it('shows its title, body and footer as one article', () => {
    render(
      <InfoCard title="Tu plan" tone="info" footer={<a href="/payments">Ver planes</a>}>
        Te quedan 12 slans.
      </InfoCard>,
    );
    const card = screen.getByRole('article', { name: 'Tu plan' });
    expect(card.textContent).toContain('Te quedan 12 slans.');
    expect(screen.getByRole('link', { name: 'Ver planes' })).toBeTruthy();
    expect(card.className).toContain('ui-info-card--info');
  });
});
