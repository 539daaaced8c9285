/** /form/:context/:id: the rules across fields (issue 44) said under their fields before sending, and the server's duplicate refusal. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { DUPLICATE_ALTA_MESSAGE, START_BEFORE_ALTA_MESSAGE, underAgeMessage } from '#shared/altas/alta-rules.ts';
import { FORM_PATH, answer, apiError, field, fields, fillValidAlta, publicForm, renderForm, sent, setUpFormTests, stubFetch, type } from './test/publicForm.tsx';

setUpFormTests();

const SUBMIT = `POST ${FORM_PATH}`;
/** The alta's form with the worker's birth date and the contract's start, as the built-in form has them. */
const withDates = publicForm({
  fields: {
    ...fields,
    'Fecha Nacimiento': { fieldType: 'date', title: 'Fecha de nacimiento', required: true, fieldWriter: 'client' },
    'Fecha Inicio': { fieldType: 'date', title: 'Fecha de inicio del contrato', fieldWriter: 'client' },
  },
  formPages: [
    { title: 'Datos personales', fields: ['nombre', 'PrimerApellido', 'Tipo de documento', 'NIF', 'email', 'Fecha Nacimiento'] },
    { title: 'Contrato', fields: ['Fecha Alta', 'Fecha Inicio', 'CCC', 'conforme'] },
  ],
});

async function open(routes: Parameters<typeof stubFetch>[0] = {}) {
  const calls = stubFetch({ [`GET ${FORM_PATH}`]: answer(200, withDates), ...routes });
  renderForm();
  await screen.findByRole('heading', { name: 'Nueva alta' });
  return calls;
}

/** The message under a field (its aria-describedby), or '' when it has none. */
const errorUnder = (label: string) => document.getElementById(field(label).getAttribute('aria-describedby') ?? '')?.textContent ?? '';

describe('FormPage: altas a gestoría must never file (issue 44)', () => {
  it('says under the birth date that a worker born in 2015 is 11 on the fecha de alta, and sends nothing', async () => {
    const calls = await open();
    fillValidAlta();
    type('Fecha de nacimiento *', '2015-03-10');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar alta' }));
    await waitFor(() => expect(field('Fecha de nacimiento *').getAttribute('aria-invalid')).toBe('true'));
    expect(errorUnder('Fecha de nacimiento *')).toBe(underAgeMessage(11));
    expect(sent(calls, SUBMIT)).toEqual([]);

    // A birth date 16 years before the alta mends it at once.
    type('Fecha de nacimiento *', '2010-12-01');
    expect(field('Fecha de nacimiento *').getAttribute('aria-invalid')).toBeNull();
  });

  it('shows the age rule on the birth date as soon as the fecha de alta is left, before sending', async () => {
    await open();
    type('Fecha de nacimiento *', '2015-03-10');
    fireEvent.blur(field('Fecha de nacimiento *'));
    expect(errorUnder('Fecha de nacimiento *')).toBe('');
    type('Fecha de alta *', '2026-12-01');
    fireEvent.blur(field('Fecha de alta *'));
    expect(errorUnder('Fecha de nacimiento *')).toBe(underAgeMessage(11));
  });

  it('says under the contract start that it cannot be before the fecha de alta', async () => {
    const calls = await open();
    fillValidAlta();
    type('Fecha de nacimiento *', '1990-05-31');
    type('Fecha de inicio del contrato', '2026-11-30');
    fireEvent.blur(field('Fecha de inicio del contrato'));
    expect(errorUnder('Fecha de inicio del contrato')).toBe(START_BEFORE_ALTA_MESSAGE);
    fireEvent.click(screen.getByRole('button', { name: 'Enviar alta' }));
    expect(sent(calls, SUBMIT)).toEqual([]);
    type('Fecha de inicio del contrato', '2026-12-01');
    expect(errorUnder('Fecha de inicio del contrato')).toBe('');
  });

  it('says a NIF whose letter is wrong has the wrong letter', async () => {
    await open();
    fillValidAlta();
    type('Número de documento *', '12345678A');
    fireEvent.blur(field('Número de documento *'));
    expect(errorUnder('Número de documento *')).toBe('La letra del NIF no es correcta');
  });

  it("puts the server's duplicate refusal (409) under the document number", async () => {
    const calls = await open({ [SUBMIT]: apiError(409, DUPLICATE_ALTA_MESSAGE, [{ path: 'fieldsValues.NIF', message: DUPLICATE_ALTA_MESSAGE }]) });
    fillValidAlta();
    type('Fecha de nacimiento *', '1990-05-31');
    fireEvent.click(screen.getByRole('button', { name: 'Enviar alta' }));
    await waitFor(() => expect(errorUnder('Número de documento *')).toBe(DUPLICATE_ALTA_MESSAGE));
    expect(sent(calls, SUBMIT)).toHaveLength(1);
  });
});
