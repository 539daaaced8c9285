/** /email step 3: the review, saving refused without a linked account (spec §5), the server's refusal, and the save. */
import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { jsonResponse } from '../../test/renderApp.tsx';
import { DRAFT_STORAGE_KEY, initialDraft, loadDraft, saveDraft } from './draft.ts';
import { account, baseRoutes, ok, relinkAccount, renderWizard, setUpEmailTests, stubApi, MACHINE_ID } from './test/renderEmail.tsx';

setUpEmailTests();

const CONFIGS = `POST /api/machines/${MACHINE_ID}/configs`;
const savedConfig = { _id: 'cfg-1', name: 'Resultados', cccList: [], emailSettings: null, error: null, createdAt: '2026-11-27T08:00:00.000Z' };

async function throughTheSteps() {
  fireEvent.change(await screen.findByLabelText('Nombre de la configuración'), { target: { value: ' Resultados ' } });
  fireEvent.change(screen.getByLabelText('Nombre del remitente (opcional)'), { target: { value: 'Asesoría Pérez' } });
  await screen.findByText('PC Oficina');
  fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
  await screen.findByRole('heading', { name: 'Conecta la cuenta' });
}

describe('the summary step', () => {
  it('will not save without a linked account, and says why next to the button', async () => {
    const calls = stubApi(baseRoutes([relinkAccount]));
    renderWizard();
    await throughTheSteps();
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    await screen.findByRole('heading', { name: 'Revisa y guarda' });
    const save = screen.getByRole('button', { name: 'Guardar' }) as HTMLButtonElement;
    expect(save.disabled).toBe(true);
    const reason = screen.getByText('Conecta una cuenta de correo antes de guardar la configuración.');
    expect(save.getAttribute('aria-describedby')).toBe(reason.id);
    fireEvent.click(save);
    expect(calls.some((call) => call.key === CONFIGS)).toBe(false);
  });

  it('reviews everything and saves the config on the machine with the chosen account, then goes back to Mis recursos', async () => {
    const calls = stubApi(baseRoutes([account(), relinkAccount], { [CONFIGS]: ok(savedConfig, 201) }));
    renderWizard();
    await throughTheSteps();
    fireEvent.click(await screen.findByRole('radio', { name: 'Usar despacho@asesoria.es' }));
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    await screen.findByRole('heading', { name: 'Revisa y guarda' });
    const summary = screen.getAllByRole('definition')[0]?.closest('dl') ?? document.body;
    for (const text of ['PC Oficina', 'Resultados', 'despacho@asesoria.es (Google)', 'Asesoría Pérez', 'Sin indicar']) {
      expect(summary.textContent).toContain(text);
    }
    // The message as it will read (the sample run), not its [[…]] template.
    const preview = screen.getByTestId('email-summary-preview');
    expect(preview.textContent).toContain('Resultado de Validar identificadores del ');
    expect(preview.textContent).toContain('Resultado: Completado: 1.250 filas comprobadas, 3 con errores. Coste: 13 slans');
    expect(summary.textContent).not.toContain('[[');
    fireEvent.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Configuración de correo guardada')).toBeTruthy();
    expect(await screen.findByText('En Mis recursos /workspace?dispositivo=11111111-1111-4111-8111-111111111111&detalle=configuraciones')).toBeTruthy();
    const body = calls.find((call) => call.key === CONFIGS)?.body as { name: string; cccList: string[]; emailSettings: Record<string, string> };
    expect(body).toEqual({
      name: 'Resultados', cccList: [],
      emailSettings: {
        subject: 'Resultado de [[ROBOT]] del [[DATESTAMP]]', body: initialDraft(null).fields.body, provider: 'google',
        email: 'despacho@asesoria.es', replyTo: '', senderName: 'Asesoría Pérez',
      },
    });
  });

  it('shows the server’s refusal and stays', async () => {
    saveDraft({ ...initialDraft(MACHINE_ID), step: 'summary', accountId: 'acc-1', fields: { ...initialDraft(null).fields, name: 'Resultados' } });
    stubApi(baseRoutes([account()], {
      [CONFIGS]: () => jsonResponse(400, { statusCode: 400, code: 'BAD_REQUEST', message: 'Conecta una cuenta de correo antes de guardar la configuración.' }),
    }));
    renderWizard();
    const save = await screen.findByRole('button', { name: 'Guardar' });
    await waitFor(() => expect((save as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(save);
    expect((await screen.findByRole('alert')).textContent).toContain('Conecta una cuenta de correo antes de guardar la configuración.');
    expect(screen.getByRole('heading', { name: 'Revisa y guarda' })).toBeTruthy();
  });

  it('comes back from the provider at the step the draft says, with its fields, and uses the draft once', async () => {
    saveDraft({ ...initialDraft(MACHINE_ID), step: 'summary', accountId: 'acc-1', fields: { ...initialDraft(null).fields, name: 'Desde el borrador' } });
    stubApi(baseRoutes([account()]));
    renderWizard();
    expect(await screen.findByRole('heading', { name: 'Revisa y guarda' })).toBeTruthy();
    expect(await screen.findByText('Desde el borrador')).toBeTruthy();
    expect(await screen.findByText('despacho@asesoria.es (Google)')).toBeTruthy();
    expect(window.sessionStorage.getItem(DRAFT_STORAGE_KEY)).toBeNull();
    expect(loadDraft()).toBeNull();
  });
});

describe('the way back from /oauth-response', () => {
  it('continues at the review with the draft and the newly linked account chosen', async () => {
    saveDraft({ ...initialDraft(MACHINE_ID), step: 'auth', fields: { ...initialDraft(null).fields, name: 'Vuelta del proveedor' } });
    const linked = account({ _id: 'acc-new', provider: 'microsoft', email: 'nuevo@asesoria.es' });
    stubApi(baseRoutes([account(), linked]));
    renderWizard('/email?linked=acc-new');
    const heading = await screen.findByRole('heading', { name: 'Revisa y guarda' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByText('Vuelta del proveedor')).toBeTruthy();
    expect(await screen.findByText('nuevo@asesoria.es (Microsoft)')).toBeTruthy();
    expect((await screen.findByLabelText('Dónde se guarda') as HTMLSelectElement).value).toBe(MACHINE_ID);
  });
});
