import { afterEach, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import type { FormField, PublicForm } from '#shared/api/altas.ts';
import { jsonResponse } from '../../../test/renderApp.tsx';
import FormPage from '../FormPage.tsx';

/** FormPage's tests: the page on a stubbed fetch, a definition shaped like the alta's, and small readers. */

export const SLUG = 'asesoria-lopez';
export const FORM_PATH = `/api/form-to-flow-form/${SLUG}`;
export const MECANICO = '6f1c2a7e-1b2c-4d3e-8f90-1234567890ab';
export const ADMINISTRATIVO = '7a2d3b8f-2c3d-4e5f-9a01-234567890abc';

export const fields: Record<string, FormField> = {
  nombre: { fieldType: 'text', title: 'Nombre', required: true, fieldWriter: 'client' },
  PrimerApellido: { fieldType: 'text', title: 'Primer apellido', required: true, fieldWriter: 'client' },
  'Tipo de documento': {
    fieldType: 'dropdown', title: 'Tipo de documento', required: true, fieldWriter: 'client',
    validValues: [{ key: '1', text: 'D.N.I./N.I.F.' }, { key: '6', text: 'N.I.E.' }, { key: '2', text: 'Pasaporte' }],
  },
  NIF: { fieldType: 'text', title: 'Número de documento', required: true, validate: 'nienifpassport', fieldWriter: 'client' },
  email: { fieldType: 'text', title: 'Email del trabajador', validate: 'email', fieldWriter: 'client' },
  'Fecha Alta': { fieldType: 'date', title: 'Fecha de alta', required: true, fieldWriter: 'client' },
  CCC: { fieldType: 'dropdown', title: 'Cuenta de cotización', required: true, fieldWriter: 'client', validValuesFromExtraFields: { field: 'CCC' } },
  Provincia: {
    fieldType: 'dropdown', title: 'Provincia del centro', fieldWriter: 'client',
    validValues: [{ key: '28', text: 'Madrid' }, { key: '08', text: 'Barcelona' }],
  },
  Municipio: {
    fieldType: 'dropdown', title: 'Municipio del centro', fieldWriter: 'client', dependentKey: 'Provincia',
    dependentOptions: {
      '28': [{ key: '28079', text: 'Madrid' }, { key: '28005', text: 'Alcalá de Henares' }],
      '08': [{ key: '08019', text: 'Barcelona' }, { key: '08101', text: "L'Hospitalet de Llobregat" }],
    },
  },
  'Foto DNI': { fieldType: 'file', title: 'Foto del DNI', fieldWriter: 'client' },
  conforme: { fieldType: 'checkbox', title: 'Los datos son correctos', required: true, fieldWriter: 'client' },
};

export function publicForm(session: Partial<NonNullable<PublicForm['session']>> | null = {}): PublicForm {
  return {
    title: 'Altas de Asesoría López',
    logo: '/api/users/formToFlow/logo/g1',
    session: session === null ? null : {
      email: 'rrhh@talleresnorte.es',
      companies: [{
        _id: 'c1', name: 'Talleres Norte SL', ccc: [{ label: 'Taller', key: '28123456789' }, { label: 'Oficina', key: '28987654321' }],
        groups: [{ key: MECANICO, text: 'Mecánico' }, { key: ADMINISTRATIVO, text: 'Administrativo' }],
      }],
      fields,
      formPages: [
        { title: 'Datos personales', fields: ['nombre', 'PrimerApellido', 'Tipo de documento', 'NIF', 'email'] },
        { title: 'Contrato', fields: ['Fecha Alta', 'CCC', 'Provincia', 'Municipio', 'Foto DNI', 'conforme', 'unknownKey'] },
      ],
      submissions: [],
      ...session,
    },
  };
}

export interface Call {
  key: string;
  init: RequestInit | undefined;
  body: unknown;
}
export type Handler = (call: Call) => Response | Promise<Response>;

/** fetch answering by "METHOD /path"; every call is recorded with its JSON body parsed. */
export function stubFetch(routes: Record<string, Handler | Handler[]>) {
  const calls: Call[] = [];
  const served: Record<string, number> = {};
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const key = `${init?.method ?? 'GET'} ${decodeURIComponent(new URL(String(input), 'http://localhost').pathname)}`;
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : init?.body;
    const call = { key, init, body };
    calls.push(call);
    const route = routes[key];
    // A list answers in turn, the last one again once used up (GET before and after signing in).
    const count = served[key] ?? 0;
    served[key] = count + 1;
    const handler = Array.isArray(route) ? route[Math.min(count, route.length - 1)] : route;
    return handler ? handler(call) : jsonResponse(404, { statusCode: 404, code: 'NOT_FOUND', message: 'No encontrado' });
  });
  return calls;
}

export const answer = (status: number, body: unknown): Handler => () => (status === 204 ? new Response(null, { status }) : jsonResponse(status, body));
export const apiError = (status: number, message: string, issues?: { path: string; message: string }[]): Handler =>
  answer(status, { statusCode: status, code: 'ERROR', message, ...(issues ? { issues } : {}) });

export function setUpFormTests() {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}

export function renderForm(path = `/form/flows/${SLUG}`) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <Route path="/form/:context/:id?" element={<FormPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

export const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement & HTMLSelectElement;
export const type = (label: string, value: string) => fireEvent.change(field(label), { target: { value } });
export const sent = (calls: Call[], key: string) => calls.filter((call) => call.key === key);

/** Fills every required field with good values (a DNI with its right letter). */
export function fillValidAlta() {
  type('Perfil del puesto *', MECANICO);
  type('Nombre *', 'María');
  type('Primer apellido *', 'García');
  type('Tipo de documento *', '1');
  type('Número de documento *', '12345678Z');
  type('Fecha de alta *', '2026-12-01');
  type('Cuenta de cotización *', '28987654321');
  fireEvent.click(screen.getByLabelText('Los datos son correctos *'));
}
