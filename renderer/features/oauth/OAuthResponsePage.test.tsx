import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { StrictMode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { MailAccount } from '#shared/api/mail.ts';
import { jsonResponse, mockApi, renderWithApp } from '../../test/renderApp.tsx';
import OAuthResponsePage from './OAuthResponsePage.tsx';
import { MAIL_WIZARD_DRAFT_KEY } from './wizardReturn.ts';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.sessionStorage.clear();
});

const renderAt = (url: string) =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <OAuthResponsePage />
    </MemoryRouter>,
  );

describe('OAuthResponsePage without a state to complete', () => {
  it('reports a received authorisation code', () => {
    renderAt('/oauth-response?code=abc123');
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

const linked: MailAccount = {
  _id: 'acc-7', provider: 'google', email: 'despacho@asesoria.es', status: 'linked', problem: null, mine: true,
  linkedBy: { name: 'Ana', email: 'ana@asesoria.es' }, linkedAt: '2026-11-27T08:00:00.000Z', lastUsedAt: null,
};

function Where() {
  const location = useLocation();
  return <p>{`Asistente en ${location.pathname}${location.search}`}</p>;
}

/** The page in strict mode (effects twice), with the wizard's route answering with where it was sent. */
function renderCompletion(url: string, answer: () => Response) {
  const api = mockApi({ 'POST /api/mail/oauth/complete': answer });
  vi.stubGlobal('fetch', api.fetchMock);
  renderWithApp(
    <StrictMode>
      <Routes>
        <Route path="/oauth-response" element={<OAuthResponsePage />} />
        <Route path="/email" element={<Where />} />
      </Routes>
    </StrictMode>,
    { path: url, toasts: true },
  );
  return api.calls;
}

const completions = (calls: { key: string; body: unknown }[]) => calls.filter((call) => call.key === 'POST /api/mail/oauth/complete');

describe('OAuthResponsePage completing a mail account link', () => {
  it('posts the code and state once, even with effects run twice, and says which account was connected', async () => {
    const calls = renderCompletion('/oauth-response?code=abc123&state=state-aaaaaaaaaaaaaaaa', () => jsonResponse(201, linked));
    const status = await screen.findByText('Cuenta conectada');
    expect(status.closest('[role="status"]')?.textContent).toContain('La cuenta despacho@asesoria.es ya puede enviar los correos de tus robots.');
    expect(completions(calls).map((call) => call.body)).toEqual([{ state: 'state-aaaaaaaaaaaaaaaa', code: 'abc123' }]);
    expect(screen.queryByRole('link', { name: 'Volver a la configuración de correo' })).toBeNull();
  });

  it('returns to the waiting wizard with the new account', async () => {
    window.sessionStorage.setItem(MAIL_WIZARD_DRAFT_KEY, JSON.stringify({ step: 'auth' }));
    const calls = renderCompletion('/oauth-response?code=abc123&state=state-bbbbbbbbbbbbbbbb', () => jsonResponse(201, linked));
    expect(await screen.findByText('Asistente en /email?linked=acc-7')).toBeTruthy();
    expect(await screen.findByText('Cuenta conectada: despacho@asesoria.es')).toBeTruthy();
    expect(completions(calls)).toHaveLength(1);
    // The wizard reads its own draft: this page leaves it there.
    expect(window.sessionStorage.getItem(MAIL_WIZARD_DRAFT_KEY)).not.toBeNull();
  });

  it('passes the provider’s refusal on with its state and shows the server’s Spanish answer, with the way back to the wizard', async () => {
    window.sessionStorage.setItem(MAIL_WIZARD_DRAFT_KEY, JSON.stringify({ step: 'auth' }));
    const message = 'No se ha concedido el permiso para enviar correo. Vuelve a conectar la cuenta y acepta el permiso.';
    const calls = renderCompletion(
      '/oauth-response?error=access_denied&error_description=cancelado&state=state-cccccccccccccccc',
      () => jsonResponse(400, { statusCode: 400, code: 'BAD_REQUEST', message }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(message);
    expect(completions(calls).map((call) => call.body)).toEqual([{ state: 'state-cccccccccccccccc', error: 'access_denied', errorDescription: 'cancelado' }]);
    expect(screen.getByRole('link', { name: 'Volver a la configuración de correo' }).getAttribute('href')).toBe('/email');
  });

  it('asks to sign in when the server answers 401', async () => {
    renderCompletion('/oauth-response?code=abc123&state=state-dddddddddddddddd', () => jsonResponse(401, { statusCode: 401, code: 'UNAUTHORIZED', message: 'No autorizado' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Tu sesión ha caducado o no has iniciado sesión.');
    await waitFor(() => expect(screen.getByRole('link', { name: 'Iniciar sesión' }).getAttribute('href')).toBe('/auth'));
  });
});
