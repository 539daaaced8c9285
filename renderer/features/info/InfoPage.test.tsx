import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import InfoPage from './InfoPage.tsx';

afterEach(cleanup);

describe('InfoPage', () => {
  it('explains what AutoAsesor is and its two modes', () => {
    render(<MemoryRouter><InfoPage /></MemoryRouter>);
    expect(screen.getByRole('heading', { level: 1, name: 'Información' })).toBeTruthy();
    expect(screen.getByText(/AutoAsesor es una plataforma de automatización para asesorías/)).toBeTruthy();
    expect(screen.getByRole('article', { name: 'Web y escritorio' }).textContent).toContain('certificados locales');
  });
});
