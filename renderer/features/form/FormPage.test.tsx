import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import FormPage from './FormPage.tsx';

afterEach(cleanup);

describe('FormPage', () => {
  it('says the form does not exist, without any app chrome', () => {
    render(<MemoryRouter><FormPage /></MemoryRouter>);
    expect(screen.getByRole('main')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Este formulario no existe o ya no está disponible.' })).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.getByRole('link', { name: 'Ir al inicio de AutoAsesor' }).getAttribute('href')).toBe('/');
  });
});
