import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import OAuthResponsePage from './OAuthResponsePage.tsx';

afterEach(cleanup);

const renderAt = (url: string) =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <OAuthResponsePage />
    </MemoryRouter>,
  );

describe('OAuthResponsePage', () => {
  it('reports a received authorisation code', () => {
    renderAt('/oauth-response?code=abc123&state=x');
    const status = screen.getByRole('status');
    expect(status.textContent).toContain('Autorización recibida');
    expect(status.textContent).toContain('Puedes cerrar esta ventana.');
  });

  it('reports the provider error as an alert', () => {
    renderAt('/oauth-response?error=access_denied');
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('No se ha podido conectar la cuenta');
    expect(alert.textContent).toContain('access_denied');
    expect(alert.textContent).toContain('Puedes cerrar esta ventana.');
  });

  it('prefers the error description when the provider sends one', () => {
    renderAt('/oauth-response?error=access_denied&error_description=El%20usuario%20ha%20cancelado');
    expect(screen.getByRole('alert').textContent).toContain('El usuario ha cancelado');
  });

  it('says so when nothing came back', () => {
    renderAt('/oauth-response');
    expect(screen.getByRole('status').textContent).toContain('No hay respuesta de autorización');
  });
});
