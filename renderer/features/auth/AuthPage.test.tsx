import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router-dom';
import { jsonResponse, mockApi, renderWithApp, testUser } from '../../test/renderApp.tsx';
import AuthPage from './AuthPage.tsx';

const PASSWORD_MESSAGE = 'La contraseña debe incluir al menos 8 caracteres, un número, una mayúscula y un símbolo especial';

function renderAuth(path = '/auth') {
  return renderWithApp(
    <Routes>
      <Route path="/auth/:mode?" element={<AuthPage />} />
    </Routes>,
    { path },
  );
}

const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

afterEach(() => vi.unstubAllGlobals());

describe('AuthPage', () => {
  it('signs in by default and says which fields are missing on submit', async () => {
    renderAuth();
    expect(screen.getByRole('heading', { name: 'Inicia sesión' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    expect(await screen.findAllByText('Este campo es obligatorio')).toHaveLength(2);
  });

  it('checks the email format when the field loses focus', async () => {
    renderAuth();
    type('Email', 'ana@');
    expect(screen.queryByText('Introduce una dirección de correo electrónico válida')).toBeNull();
    fireEvent.blur(screen.getByLabelText('Email'));
    expect(await screen.findByText('Introduce una dirección de correo electrónico válida')).toBeTruthy();
    type('Email', 'ana@asesoria.es');
    fireEvent.blur(screen.getByLabelText('Email'));
    await waitFor(() => expect(screen.queryByText('Introduce una dirección de correo electrónico válida')).toBeNull());
  });

  it('asks for a strong password on sign up', async () => {
    const api = mockApi({});
    vi.stubGlobal('fetch', api.fetchMock);
    renderAuth('/auth/signup');
    type('Nombre', 'Ana');
    type('Email', 'ana@asesoria.es');
    type('Contraseña', 'corta');
    fireEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));
    expect(await screen.findByText(PASSWORD_MESSAGE)).toBeTruthy();
    expect(screen.queryByText('Este campo es obligatorio')).toBeNull();
    expect(api.calls).toEqual([]);
  });

  it('shows the server field issues next to their fields and its message in the alert', async () => {
    const api = mockApi({
      'POST /api/users': () => jsonResponse(409, { statusCode: 409, code: 'CONFLICT', message: 'Datos no válidos', issues: [{ path: 'email', message: 'Este email ya está en uso' }] }),
    });
    vi.stubGlobal('fetch', api.fetchMock);
    renderAuth('/auth/signup');
    type('Nombre', 'Ana');
    type('Email', 'ana@asesoria.es');
    type('Contraseña', 'Segura#2025');
    fireEvent.click(screen.getByRole('button', { name: 'Crear cuenta' }));

    expect(await screen.findByText('Este email ya está en uso')).toBeTruthy();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByRole('alert').textContent).toBe('Revisa los campos marcados.');
    expect(api.calls[0]?.body).toEqual({ name: 'Ana', email: 'ana@asesoria.es', password: 'Segura#2025' });
  });

  it('signs the user in on success and reports wrong credentials in the alert region', async () => {
    let attempts = 0;
    const api = mockApi({
      'POST /api/auth/login': () =>
        ++attempts === 1
          ? jsonResponse(401, { statusCode: 401, code: 'BAD_CREDENTIALS', message: 'Email o contraseña incorrectos' })
          : jsonResponse(200, { userData: testUser() }),
    });
    vi.stubGlobal('fetch', api.fetchMock);
    const { store } = renderAuth();
    type('Email', 'ana@asesoria.es');
    type('Contraseña', 'x');
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Email o contraseña incorrectos');
    // GET /api/auth/google only asks whether 'Continuar con Google' is offered (GoogleSignInButton.test.tsx).
    expect(api.calls.map((call) => call.key).filter((key) => key !== 'GET /api/auth/google')).toEqual(['POST /api/auth/login']);

    fireEvent.click(screen.getByRole('button', { name: 'Iniciar sesión' }));
    await waitFor(() => expect(store.getState().session.status).toBe('authenticated'));
  });

  it('sends the reset link and says so without revealing whether the account exists', async () => {
    vi.stubGlobal('fetch', mockApi({ 'POST /api/auth/resetpass': () => jsonResponse(202, { ok: true }) }).fetchMock);
    renderAuth('/auth/reset');
    type('Email', 'ana@asesoria.es');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar enlace' }));
    expect((await screen.findByRole('status')).textContent).toContain('Si existe una cuenta para ana@asesoria.es');
  });

  it('sets a new password from the emailed link', async () => {
    const api = mockApi({ 'POST /api/auth/resetpasscheck': () => jsonResponse(200, { ok: true }) });
    vi.stubGlobal('fetch', api.fetchMock);
    renderAuth('/auth/reset?token=0123456789abcdef0123');
    const save = screen.getByRole('button', { name: 'Guardar contraseña' });
    await waitFor(() => expect((save as HTMLButtonElement).disabled).toBe(false));
    type('Nueva contraseña', 'Segura#2025');
    fireEvent.click(save);
    expect((await screen.findByRole('status')).textContent).toContain('Contraseña actualizada');
    expect(api.calls.map((call) => call.body)).toEqual([
      { token: '0123456789abcdef0123' },
      { token: '0123456789abcdef0123', password: 'Segura#2025' },
    ]);
  });

  it('says when the reset link is no longer valid', async () => {
    vi.stubGlobal('fetch', mockApi({ 'POST /api/auth/resetpasscheck': () => jsonResponse(400, { statusCode: 400, code: 'BAD_TOKEN', message: 'El enlace no es válido' }) }).fetchMock);
    renderAuth('/auth/reset?token=0123456789abcdef0123');
    expect((await screen.findByRole('alert')).textContent).toBe('El enlace no es válido o ha caducado. Pide uno nuevo.');
  });
});
