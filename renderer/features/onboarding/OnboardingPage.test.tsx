import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import OnboardingPage from './OnboardingPage.tsx';

afterEach(cleanup);

describe('OnboardingPage', () => {
  it('lists the first steps, each saying whether it is available', () => {
    render(<MemoryRouter><OnboardingPage /></MemoryRouter>);
    expect(screen.getByRole('heading', { level: 1, name: 'Primeros pasos' })).toBeTruthy();
    const steps = within(screen.getByRole('list', { name: 'Lista de primeros pasos' })).getAllByRole('listitem');
    expect(steps.length).toBeGreaterThanOrEqual(5);
    for (const step of steps) expect(step.textContent).toMatch(/Disponible|Aún no disponible en esta versión/);
  });

  it('links available steps and not unavailable ones', () => {
    render(<MemoryRouter><OnboardingPage /></MemoryRouter>);
    expect(screen.getByRole('link', { name: 'Ir: Consulta tu plan y tus créditos' }).getAttribute('href')).toBe('/payments');
    const email = screen.getByRole('heading', { name: 'Conecta una cuenta de correo' }).closest('li') as HTMLElement;
    expect(email.textContent).toContain('Aún no disponible en esta versión');
    expect(within(email).queryByRole('link')).toBeNull();
  });
});
