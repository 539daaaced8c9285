/** Ver Alta's state (issue 44, 5): the chain, the last error and when; 'Marcar como registrada' (issue 44, 3); the mail's link. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Submission } from '#shared/api/altas.ts';
import { altasRoutes, answer, failure, registered, renderAltas, rowOf, setUpAltasTests, shownToasts, stubApi, submission } from './test/renderAltas.tsx';

setUpAltasTests();

const refused = submission({ lastError: '#DIL 3012 EL TRABAJADOR YA FIGURA DE ALTA', lastErrorAt: '2026-11-20T09:00:00.000Z' });
const a3Refused = registered({ lastError: 'A3 no reconoce el CCC', lastErrorAt: '2026-11-21T15:30:00.000Z' });
const MARK = 'POST /api/form-to-flow-submission/s1/registered';

async function openAlta(title: string) {
  await screen.findByText(title);
  fireEvent.click(rowOf(title).getByRole('button', { name: 'Ver Alta' }));
  return screen.findByRole('dialog', { name: 'Ver Alta' });
}

const stateOf = (dialog: HTMLElement) => within(within(dialog).getByRole('region', { name: 'Estado' }));

describe('Ver Alta: where the alta stands', () => {
  it('shows the chain, and RED’s last error with when it came', async () => {
    stubApi(altasRoutes({ submissions: [refused] }));
    renderAltas();
    const state = stateOf(await openAlta(refused.title));
    expect(state.getByRole('list', { name: 'Estado del alta' }).textContent).toContain('Rechazada por RED');
    expect(state.getByRole('note').textContent).toBe('Último error de Sistema RED (20/11/26 10:00): #DIL 3012 EL TRABAJADOR YA FIGURA DE ALTA');
  });

  it('names A3 when A3 refused it, and offers no manual mark once RED has it', async () => {
    stubApi(altasRoutes({ submissions: [a3Refused] }));
    renderAltas();
    const state = stateOf(await openAlta(a3Refused.title));
    expect(state.getByRole('note').textContent).toBe('Último error de A3 (21/11/26 16:30): A3 no reconoce el CCC');
    expect(state.getByRole('list', { name: 'Estado del alta' }).textContent).toContain('Rechazada por A3');
    expect(state.queryByRole('button', { name: 'Marcar como registrada' })).toBeNull();
  });
});

describe("'Marcar como registrada'", () => {
  it('asks first, sends the reference, and shows who marked it and when', async () => {
    const marked: Submission = registered({
      _id: 's1', title: refused.title, lastError: null, lastErrorAt: null, manualRegistration: { byName: 'Ana Pérez', reference: 'RED-0042' },
      chain: { receivedAt: refused.chain.receivedAt, redAt: '2026-11-20T10:00:00.000Z', a3At: null, companyNotifiedAt: '2026-11-20T10:00:01.000Z' },
      processed: { syncSistemaRed: '2026-11-20T10:00:00.000Z', syncA3: null },
    });
    const calls = stubApi(altasRoutes({ submissions: [refused] }, { [MARK]: answer(marked) }));
    renderAltas();
    const dialog = await openAlta(refused.title);
    const state = stateOf(dialog);
    fireEvent.click(state.getByRole('button', { name: 'Marcar como registrada' }));
    const confirm = within(state.getByRole('group', { name: 'Marcar como registrada en Sistema RED' }));
    expect(confirm.getByText(/Usa esta opción si ya has presentado el alta de Lucía en Sistema RED por otra vía/)).toBeTruthy();
    // Cancelling sends nothing.
    fireEvent.click(confirm.getByRole('button', { name: 'Cancelar' }));
    expect(calls.some((call) => call.key === MARK)).toBe(false);

    fireEvent.click(state.getByRole('button', { name: 'Marcar como registrada' }));
    const again = within(state.getByRole('group', { name: 'Marcar como registrada en Sistema RED' }));
    fireEvent.change(again.getByLabelText('Número de referencia de RED (opcional)'), { target: { value: ' RED-0042 ' } });
    fireEvent.click(again.getByRole('button', { name: 'Marcar como registrada' }));
    expect(await state.findByText('Marcada como registrada por Ana Pérez el 20/11/26 11:00. Número de referencia: RED-0042')).toBeTruthy();
    expect(calls.find((call) => call.key === MARK)?.body).toEqual({ reference: 'RED-0042' });
    expect(state.getByRole('list', { name: 'Estado del alta' }).textContent).toContain('Registrada en RED');
    expect(state.queryByRole('note')).toBeNull();
    expect(state.queryByRole('button', { name: 'Marcar como registrada' })).toBeNull();
    expect(shownToasts()).toContainEqual({ kind: 'success', lines: ['Alta marcada como registrada en Sistema RED'] });
  });

  it('sends no reference when none is typed, and says why the server refused it', async () => {
    const calls = stubApi(altasRoutes({ submissions: [refused] }, { [MARK]: failure(409, 'Esta alta ya está registrada en Sistema RED') }));
    renderAltas();
    const state = stateOf(await openAlta(refused.title));
    fireEvent.click(state.getByRole('button', { name: 'Marcar como registrada' }));
    const confirm = within(state.getByRole('group', { name: 'Marcar como registrada en Sistema RED' }));
    fireEvent.click(confirm.getByRole('button', { name: 'Marcar como registrada' }));
    expect(await confirm.findByText('Esta alta ya está registrada en Sistema RED')).toBeTruthy();
    expect(calls.find((call) => call.key === MARK)?.body).toEqual({});
  });
});

describe("the advisors' mail link", () => {
  it('opens Ver Alta of the alta it names (/altasybajas?alta=<id>)', async () => {
    const marta = submission({ _id: 's3', title: 'Marta Sanz - Hostelería Levante S.L.', fieldsValues: { ...submission().fieldsValues, nombre: 'Marta' } });
    stubApi(altasRoutes({ submissions: [submission(), marta] }));
    renderAltas({ search: '?alta=s3' });
    const dialog = await screen.findByRole('dialog', { name: 'Ver Alta' });
    await waitFor(() => expect((within(dialog).getByLabelText(/^Nombre/) as HTMLInputElement).value).toBe('Marta'));
    expect(within(dialog).getByRole('region', { name: 'Estado' })).toBeTruthy();
  });
});
