/** /online-form/:id: the client's form on a stubbed fetch — load states, checks as fields are left and on send, the server's errors, the receipt. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { FORM_CLOSED_MESSAGE, SIGNATURE_REQUIRED_MESSAGE } from '#shared/api/onlineforms.ts';
import type { PublicOnlineForm } from '#shared/api/onlineforms.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import OnlineFormPage from './OnlineFormPage.tsx';

const PUBLIC_ID = 'f3b1c2d4e5f6a7b8c9d0';
const FORM_KEY = `GET /api/online-forms/${PUBLIC_ID}`;
const SEND_KEY = `POST /api/online-forms/${PUBLIC_ID}/submissions`;

const form = (overrides: Partial<PublicOnlineForm> = {}): PublicOnlineForm => ({
  title: 'Solicitud de datos de alta',
  description: 'Rellena tus datos para tramitar tu alta.',
  firmName: 'Asesoría López',
  requireSignature: false,
  fields: [
    { key: 'Nombre', label: 'Nombre completo', type: 'text', required: true },
    { key: 'NIF', label: 'NIF', type: 'nif', required: true, help: 'Con la letra' },
    { key: 'Email', label: 'Correo', type: 'email', required: false },
    { key: 'NAF', label: 'Número de la Seguridad Social', type: 'naf', required: false },
    { key: 'Fecha Alta', label: 'Fecha de alta', type: 'date', required: true },
    { key: 'Jornada', label: 'Jornada', type: 'select', required: true, options: ['Completa', 'Parcial'] },
    { key: 'Observaciones', label: 'Observaciones', type: 'textarea', required: false },
    { key: 'Conforme', label: 'Los datos son correctos', type: 'checkbox', required: true },
  ],
  ...overrides,
});

interface Call { key: string; body: unknown; init: RequestInit | undefined }
type Handler = (call: Call) => Response;

function stubFetch(routes: Record<string, Handler>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${decodeURIComponent(new URL(String(input), 'http://localhost').pathname)}`;
    const call = { key, init, body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined };
    calls.push(call);
    const handler = routes[key];
    return handler ? handler(call) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  });
  return calls;
}
const answer = (status: number, body: unknown): Handler => () => jsonResponse(status, body);
const apiError = (status: number, message: string, issues?: { path: string; message: string }[]): Handler =>
  answer(status, { statusCode: status, code: 'ERROR', message, ...(issues ? { issues } : {}) });

function renderPage(path = `/online-form/${PUBLIC_ID}`) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/online-form/:id?" element={<OnlineFormPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const type = (label: string, value: string) => fireEvent.change(input(label), { target: { value } });
const errorOf = (label: string) => {
  const describedBy = input(label).getAttribute('aria-describedby') ?? '';
  const errorId = describedBy.split(' ').find((id) => id.endsWith('-error'));
  return errorId === undefined ? '' : (document.getElementById(errorId)?.textContent ?? '');
};

function fillValid() {
  type('Nombre completo *', 'María García');
  type('NIF *', '12345678z');
  type('Fecha de alta *', '2026-12-01');
  type('Jornada *', 'Completa');
  fireEvent.click(input('Los datos son correctos *'));
}

beforeEach(() => {
  // jsdom has no 2D canvas: the pad stays off, as in a browser without one.
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('OnlineFormPage', () => {
  it('shows the firm, the title and one control per field with the keyboard its type needs', async () => {
    stubFetch({ [FORM_KEY]: answer(200, form()) });
    renderPage();
    expect(await screen.findByRole('heading', { level: 1, name: 'Solicitud de datos de alta' })).toBeTruthy();
    expect(screen.getByText('De Asesoría López')).toBeTruthy();
    expect(input('Fecha de alta *').type).toBe('date');
    expect(input('Correo').type).toBe('email');
    expect(input('Número de la Seguridad Social').inputMode).toBe('numeric');
    expect(input('Jornada *').tagName).toBe('SELECT');
    expect(input('Observaciones').tagName).toBe('TEXTAREA');
    expect(input('Los datos son correctos *').type).toBe('checkbox');
    // The help line is tied to its field.
    expect(input('NIF *').getAttribute('aria-describedby')).toContain(screen.getByText('Con la letra').id);
  });

  it('never sends cookies: the public calls are the only ones it makes', async () => {
    const calls = stubFetch({ [FORM_KEY]: answer(200, form()), [SEND_KEY]: answer(201, { id: 's1', receivedAt: '2026-12-02T10:05:00.000Z' }) });
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Solicitud de datos de alta' });
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar formulario' }));
    await screen.findByRole('heading', { name: 'Hemos recibido tu formulario' });
    expect(calls.map((call) => call.key)).toEqual([FORM_KEY, SEND_KEY]);
    expect(calls.every((call) => call.init?.credentials === 'omit')).toBe(true);
  });

  it('says the form is unknown on 404 and closed on 410', async () => {
    stubFetch({ [FORM_KEY]: apiError(404, 'No encontramos ese formulario') });
    const view = renderPage();
    expect(await screen.findByRole('heading', { name: /No encontramos este formulario/ })).toBeTruthy();
    view.unmount();
    stubFetch({ [FORM_KEY]: apiError(410, FORM_CLOSED_MESSAGE) });
    renderPage();
    expect(await screen.findByRole('heading', { name: FORM_CLOSED_MESSAGE })).toBeTruthy();
  });

  it('offers to retry when the form could not be loaded', async () => {
    const routes: Record<string, Handler> = { [FORM_KEY]: apiError(500, 'Error') };
    stubFetch(routes);
    renderPage();
    const retry = await screen.findByRole('button', { name: 'Reintentar' });
    routes[FORM_KEY] = answer(200, form());
    fireEvent.click(retry);
    expect(await screen.findByRole('heading', { level: 1, name: 'Solicitud de datos de alta' })).toBeTruthy();
  });

  it('checks a field as the client leaves it, and the error goes as soon as the value is right', async () => {
    stubFetch({ [FORM_KEY]: answer(200, form()) });
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Solicitud de datos de alta' });
    // Leaving an empty field says nothing yet.
    fireEvent.blur(input('Nombre completo *'));
    expect(input('Nombre completo *').getAttribute('aria-invalid')).toBeNull();
    type('NIF *', '12345678A');
    fireEvent.blur(input('NIF *'));
    expect(input('NIF *').getAttribute('aria-invalid')).toBe('true');
    expect(errorOf('NIF *')).not.toBe('');
    type('NIF *', '12345678Z');
    expect(input('NIF *').getAttribute('aria-invalid')).toBeNull();
    type('Correo', 'maria@');
    fireEvent.blur(input('Correo'));
    expect(input('Correo').getAttribute('aria-invalid')).toBe('true');
  });

  it('on send marks every wrong field, focuses the first and sends nothing', async () => {
    const calls = stubFetch({ [FORM_KEY]: answer(200, form()) });
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Solicitud de datos de alta' });
    type('NIF *', '12345678Z');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar formulario' }));
    expect(await screen.findByText('Revisa los campos marcados antes de enviar el formulario.')).toBeTruthy();
    expect(errorOf('Nombre completo *')).toBe('Este campo es obligatorio');
    expect(errorOf('Los datos son correctos *')).toBe('Este campo es obligatorio');
    expect(input('NIF *').getAttribute('aria-invalid')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(input('Nombre completo *')));
    expect(calls.filter((call) => call.key === SEND_KEY)).toHaveLength(0);
    // Each error goes as its field is put right, and the banner with the last one.
    fillValid();
    expect(input('Nombre completo *').getAttribute('aria-invalid')).toBeNull();
    expect(screen.queryByText('Revisa los campos marcados antes de enviar el formulario.')).toBeNull();
  });

  it('sends the checked values and shows the receipt with the date', async () => {
    const calls = stubFetch({ [FORM_KEY]: answer(200, form()), [SEND_KEY]: answer(201, { id: 's1', receivedAt: '2026-12-02T10:05:00.000Z' }) });
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Solicitud de datos de alta' });
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar formulario' }));
    expect(await screen.findByRole('heading', { name: 'Hemos recibido tu formulario' })).toBeTruthy();
    expect(screen.getByRole('status').textContent).toContain('2 de diciembre de 2026');
    const sent = calls.find((call) => call.key === SEND_KEY);
    expect(sent?.body).toEqual({
      values: { Nombre: 'María García', NIF: '12345678Z', Email: '', NAF: '', 'Fecha Alta': '2026-12-01', Jornada: 'Completa', Observaciones: '', Conforme: true },
    });
  });

  it('disables the button while sending, so a double tap sends once', async () => {
    let release: (response: Response) => void = () => undefined;
    const calls = stubFetch({ [FORM_KEY]: answer(200, form()) });
    const fetchStub = globalThis.fetch;
    vi.stubGlobal('fetch', (url: RequestInfo | URL, init?: RequestInit) =>
      init?.method === 'POST' ? (calls.push({ key: SEND_KEY, init, body: undefined }), new Promise<Response>((resolve) => (release = resolve))) : fetchStub(url, init));
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Solicitud de datos de alta' });
    fillValid();
    const button = screen.getByRole('button', { name: 'Enviar formulario' });
    fireEvent.click(button);
    await waitFor(() => expect((screen.getByRole('button', { name: /Enviando/ }) as HTMLButtonElement).disabled).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: /Enviando/ }));
    expect(calls.filter((call) => call.key === SEND_KEY)).toHaveLength(1);
    release(jsonResponse(201, { id: 's1', receivedAt: '2026-12-02T10:05:00.000Z' }));
    expect(await screen.findByRole('heading', { name: 'Hemos recibido tu formulario' })).toBeTruthy();
  });

  it("shows the server's per-field errors under their fields", async () => {
    stubFetch({
      [FORM_KEY]: answer(200, form()),
      [SEND_KEY]: apiError(400, 'Revisa los datos', [{ path: 'values.Fecha Alta', message: 'La fecha no puede ser anterior a hoy' }]),
    });
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Solicitud de datos de alta' });
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar formulario' }));
    await waitFor(() => expect(errorOf('Fecha de alta *')).toBe('La fecha no puede ser anterior a hoy'));
    expect(screen.getByText('Revisa los campos marcados antes de enviar el formulario.')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(input('Fecha de alta *')));
  });

  it('tells the client when the form closed while they were filling it', async () => {
    stubFetch({ [FORM_KEY]: answer(200, form()), [SEND_KEY]: apiError(410, FORM_CLOSED_MESSAGE) });
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Solicitud de datos de alta' });
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar formulario' }));
    expect(await screen.findByRole('heading', { name: FORM_CLOSED_MESSAGE })).toBeTruthy();
  });

  it("asks for the signer's name and the signature when the form takes one", async () => {
    const calls = stubFetch({ [FORM_KEY]: answer(200, form({ requireSignature: true })) });
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'Solicitud de datos de alta' });
    expect(screen.getByRole('img', { name: /Recuadro para firmar/ })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Borrar firma' }) as HTMLButtonElement).disabled).toBe(true);
    // Whoever cannot draw signs with the name typed above: offered once there is a name.
    const typed = screen.getByRole('button', { name: 'Firmar con mi nombre' }) as HTMLButtonElement;
    expect(typed.disabled).toBe(true);
    type('Nombre de quien firma *', 'María García');
    expect(typed.disabled).toBe(false);
    type('Nombre de quien firma *', '');
    fillValid();
    fireEvent.click(screen.getByRole('button', { name: 'Enviar formulario' }));
    expect(await screen.findByText(SIGNATURE_REQUIRED_MESSAGE)).toBeTruthy();
    expect(errorOf('Nombre de quien firma *')).toBe('Este campo es obligatorio');
    await waitFor(() => expect(document.activeElement).toBe(input('Nombre de quien firma *')));
    expect(calls.filter((call) => call.key === SEND_KEY)).toHaveLength(0);
  });

  it('without a link it says to open the one the asesoría sent', async () => {
    const calls = stubFetch({});
    renderPage('/online-form');
    expect(await screen.findByRole('heading', { name: /Abre el enlace/ })).toBeTruthy();
    expect(calls).toHaveLength(0);
  });
});
