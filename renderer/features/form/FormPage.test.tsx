/** /form/:context/:id: the company's side of altas y bajas on a stubbed fetch (issue 23). */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { FORM_PATH, SLUG, answer, apiError, field, publicForm, renderForm, sent, setUpFormTests, stubFetch, type } from './test/publicForm.tsx';

setUpFormTests();

describe('FormPage: finding the form and signing in', () => {
  it('says an unknown form does not exist, after a loading state, with no app chrome', async () => {
    const calls = stubFetch({ [`GET /api/form-to-flow-form/nada`]: apiError(404, 'Este formulario no existe') });
    renderForm('/form/flows/nada');
    expect(screen.getAllByText('Cargando el formulario…').length).toBeGreaterThan(0);
    expect(await screen.findByRole('heading', { name: 'Este formulario no existe o ya no está disponible.' })).toBeTruthy();
    expect(screen.queryByRole('navigation')).toBeNull();
    expect(screen.queryByLabelText('Email')).toBeNull();
    expect(screen.getByRole('link', { name: 'Ir al inicio de AutoAsesor' }).getAttribute('href')).toBe('/');
    expect(calls.map((call) => call.key)).toEqual(['GET /api/form-to-flow-form/nada']);
  });

  it('a form address without its slug is unknown and asks nothing of the server', async () => {
    const calls = stubFetch({});
    renderForm('/form/flows');
    expect(await screen.findByRole('heading', { name: 'Este formulario no existe o ya no está disponible.' })).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('shows the logo and title and asks for the emailed credentials; a 401 shows the server’s message, a 429 the too-many-attempts one', async () => {
    const calls = stubFetch({
      [`GET ${FORM_PATH}`]: answer(200, publicForm(null)),
      'POST /api/form-to-flow-form/auth': [apiError(401, 'El email o la contraseña no son correctos'), apiError(429, 'Too Many Requests')],
    });
    renderForm();
    expect(await screen.findByRole('heading', { level: 1, name: 'Altas de Asesoría López' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'Logotipo de Altas de Asesoría López' }).getAttribute('src')).toBe('/api/users/formToFlow/logo/g1');
    expect(screen.getByText('Usa el email y la contraseña que te ha enviado tu asesoría por correo electrónico.')).toBeTruthy();

    type('Email', 'RRHH@talleresnorte.es ');
    type('Contraseña', 'mala-clave');
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(within(await screen.findByRole('alert')).getByText('El email o la contraseña no son correctos')).toBeTruthy();
    expect(sent(calls, 'POST /api/form-to-flow-form/auth')[0]?.body).toEqual({ url: `/form/flows/${SLUG}`, email: 'RRHH@talleresnorte.es', password: 'mala-clave' });

    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await within(screen.getByRole('alert')).findByText('Has hecho demasiados intentos. Espera unos minutos y vuelve a intentarlo.')).toBeTruthy();
    expect(screen.queryByText('El email o la contraseña no son correctos')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Salir' })).toBeNull();
  });

  it('checks the sign-in fields before asking the server', async () => {
    const calls = stubFetch({ [`GET ${FORM_PATH}`]: answer(200, publicForm(null)) });
    renderForm();
    fireEvent.click(await screen.findByRole('button', { name: 'Entrar' }));
    await waitFor(() => expect(field('Email').getAttribute('aria-invalid')).toBe('true'));
    expect(sent(calls, 'POST /api/form-to-flow-form/auth')).toEqual([]);
  });

  it('signs in with the company’s own cookie (same origin, not the advisor’s api), shows the email and signs out', async () => {
    const calls = stubFetch({
      [`GET ${FORM_PATH}`]: [answer(200, publicForm(null)), answer(200, publicForm()), answer(200, publicForm(null))],
      'POST /api/form-to-flow-form/auth': answer(200, { email: 'rrhh@talleresnorte.es' }),
      'POST /api/form-to-flow-form/logout': answer(204, null),
    });
    renderForm();
    await screen.findByLabelText('Email');
    type('Email', 'rrhh@talleresnorte.es');
    type('Contraseña', 'Clave-123');
    fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
    expect(await screen.findByText('Has entrado como rrhh@talleresnorte.es')).toBeTruthy();
    expect(calls.every((call) => call.init?.credentials === 'same-origin')).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Salir' }));
    expect(await screen.findByRole('button', { name: 'Entrar' })).toBeTruthy();
    expect(sent(calls, 'POST /api/form-to-flow-form/logout')).toHaveLength(1);
    expect(screen.queryByText('Has entrado como rrhh@talleresnorte.es')).toBeNull();
  });
});

describe('FormPage: the company’s submissions', () => {
  it('lists only what the server sends as its own, with its state in its own words (one RED refused is under review)', async () => {
    stubFetch({
      [`GET ${FORM_PATH}`]: answer(200, publicForm({
        submissions: [
          { _id: 's3', title: 'Eva Ruiz - Talleres Norte SL', company: 'Talleres Norte SL', createdAt: '2026-11-25T08:00:00.000Z', registered: false, status: 'attention' },
          { _id: 's2', title: 'Luis Mora - Talleres Norte SL', company: 'Talleres Norte SL', createdAt: '2026-11-20T09:30:00.000Z', registered: false, status: 'received' },
          { _id: 's1', title: 'Ana Gil - Talleres Norte SL', company: 'Talleres Norte SL', createdAt: '2026-07-02T16:05:00.000Z', registered: true, status: 'registered' },
        ],
      })),
    });
    renderForm();
    const list = await screen.findByRole('list', { name: 'Altas enviadas' });
    const items = within(list).getAllByRole('listitem').map((item) => item.textContent);
    expect(items).toEqual([
      'Eva Ruiz - Talleres Norte SLEnviada el 25/11/2026 09:00Tu asesoría está revisando los datos de esta alta; si necesita algo, se pondrá en contacto contigo.En revisión por tu asesoría',
      'Luis Mora - Talleres Norte SLEnviada el 20/11/2026 10:30Recibida',
      'Ana Gil - Talleres Norte SLEnviada el 02/07/2026 18:05Registrada en la Seguridad Social',
    ]);
  });

  it('says when there are none yet', async () => {
    stubFetch({ [`GET ${FORM_PATH}`]: answer(200, publicForm()) });
    renderForm();
    expect(await screen.findByText('Todavía no has enviado ninguna alta.')).toBeTruthy();
  });
});
