import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { jsonResponse } from '../../test/renderApp.tsx';
import { preloadModal } from '../../ui/Modal.tsx';
import { formFlow, workbookFlow } from './test/flowFixture.ts';
import { output, pollAnswers, runState } from './test/launcherApi.ts';
import { executionPath, fillFormFlow, launchButton, renderLauncher, statePath } from './test/renderLauncher.tsx';

// The dialog code loads lazily; fetch it once so the first dialog of a busy run opens in time.
beforeAll(() => Promise.all([preloadModal(), import('./SchedulerModal.tsx')]));

afterEach(() => vi.unstubAllGlobals());


// Whole screens with their dialogs in jsdom: slow on a busy machine.
describe('LauncherPage', { timeout: 15_000 }, () => {
  it('says an unknown robot is no longer with us, with a way back to the robots', async () => {
    renderLauncher(null);
    expect(await screen.findByText('Este robot ya no forma parte de nuestra familia')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: 'Lanzador de robots' })).toBeTruthy();
    fireEvent.click(screen.getByRole('link', { name: 'Volver a Robots' }));
    expect(screen.getByRole('status', { name: 'ruta' }).textContent).toBe('/flows');
  });

  it('shows the header (title, limits, usage badge in the firm\'s currency) and skips a first tutorial', async () => {
    renderLauncher(workbookFlow(), {}, 'crédito|créditos');
    expect(await screen.findByRole('heading', { level: 1, name: 'Validar identificadores' })).toBeTruthy();
    expect(screen.getByText('Hasta 10.000 filas por archivo')).toBeTruthy();
    expect(screen.getByText('1 crédito por 100 filas')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Tus datos' })).toBeTruthy();
    expect(screen.queryByText('Lee esto')).toBeNull();
    expect(launchButton()).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Programar' })).toBeTruthy();
  });

  it('shows the instructions as markdown in a dialog, links opening outside', async () => {
    renderLauncher(workbookFlow());
    fireEvent.click(await screen.findByRole('button', { name: 'Ver instrucciones' }));
    const dialog = await screen.findByRole('dialog', { name: 'Instrucciones' });
    expect(await within(dialog).findByRole('heading', { name: 'Cómo usarlo' })).toBeTruthy();
    const link = within(dialog).getByRole('link', { name: 'Guía' });
    expect(link.getAttribute('target')).toBe('_blank');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('a tutorial that is not first shows its markdown without raw HTML; IntrastatSetup shows its inputs under its heading; more than 5 choices are searchable', async () => {
    const flow = formFlow();
    const provinces = ['Álava', 'Albacete', 'Alicante', 'Almería', 'Ávila', 'Badajoz'].map((name, index) => ({ key: String(index + 1), text: name }));
    flow.sectionSetup.builder.splice(1, 0,
      { ref: 'guia', template: 'TutorialSection', title: 'Antes de seguir', params: { markdown: 'Revisa **el contrato**.<script>alert(1)</script> [Ayuda](javascript:alert(1))' }, builder: [] },
      { ref: 'intrastat', template: 'IntrastatSetup', title: 'Intrastat', builder: [{ key: 'provincia', template: 'Dropdown', label: 'Provincia', validValues: provinces }] },
    );
    const { container } = renderLauncher(flow);
    fireEvent.change(await screen.findByLabelText(/^NIF/), { target: { value: '12345678Z' } });
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Antes de seguir' })).toBeTruthy();
    expect((await screen.findByText('el contrato')).tagName).toBe('STRONG');
    expect(container.querySelector('script')).toBeNull();
    expect(screen.queryByRole('link', { name: 'Ayuda' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Configuración Intrastat' })).toBeTruthy();
    const province = screen.getByRole('combobox', { name: 'Provincia' });
    act(() => province.focus());
    fireEvent.change(province, { target: { value: 'alm' } });
    const options = await screen.findAllByRole('option');
    expect(options.map((option) => option.textContent)).toEqual(['Almería']);
  });

  it('checks a step before Next: required and format errors, on blur and on Next, and nothing is sent', async () => {
    const { api } = renderLauncher(formFlow());
    fireEvent.click(await screen.findByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByText('Este campo es obligatorio')).toBeTruthy();
    expect(screen.getByRole('heading', { level: 2, name: 'Trabajador' })).toBeTruthy();

    const nif = screen.getByLabelText(/^NIF/);
    fireEvent.change(nif, { target: { value: '1234' } });
    fireEvent.blur(nif);
    expect(await screen.findByText('Introduce un NIF o NIE válido')).toBeTruthy();
    expect(nif.getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(nif, { target: { value: '12345678Z' } });
    await waitFor(() => expect(screen.queryByText('Introduce un NIF o NIE válido')).toBeNull());
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Contrato' })).toBeTruthy();

    fireEvent.click(launchButton());
    await waitFor(() => expect(screen.getAllByText('Este campo es obligatorio')).toHaveLength(3));
    expect(screen.getByRole('button', { name: 'Elegir certificado' })).toBeTruthy();
    expect(api.posts(executionPath('alta-rapida'))).toHaveLength(0);
  });

  it('Atrás goes to the previous step, and from the first step to the previous page', async () => {
    renderLauncher(formFlow());
    fireEvent.change(await screen.findByLabelText(/^NIF/), { target: { value: '12345678Z' } });
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    await screen.findByRole('heading', { level: 2, name: 'Contrato' });
    fireEvent.click(screen.getByRole('button', { name: 'Atrás' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Trabajador' })).toBeTruthy();
    expect((screen.getByLabelText(/^NIF/) as HTMLInputElement).value).toBe('12345678Z');
    fireEvent.click(screen.getByRole('button', { name: 'Atrás' }));
    // Opened straight at the launcher, there is no page before it: the robot's page in Robots.
    await waitFor(() => expect(screen.getByRole('status', { name: 'ruta' }).textContent).toBe('/flows/alta-rapida'));
  });

  it('launches with the typed inputs and an idempotency key, follows the run and shows the output, files and cost', async () => {
    const { api, store } = renderLauncher(formFlow(), {
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState({ state: 'queued' })),
      [`GET ${statePath}`]: pollAnswers(
        () => jsonResponse(200, runState({ successfulIterations: 1, totalIterations: 2, consoleLog: ['Leyendo datos'] })),
        () => jsonResponse(200, runState({
          state: 'finished', successfulIterations: 2, totalIterations: 2, consoleLog: ['Alta preparada'],
          output: output(200, { summary: { Altas: 2 }, files: [{ name: 'altas validado.xlsx', size: 2048 }] }, ['Leyendo datos', 'Alta preparada']),
        })),
      ),
    });
    await fillFormFlow();
    expect(screen.getByText('Coste estimado: desde 2 slans')).toBeTruthy();
    expect(await screen.findByText('Saldo disponible: 1.250 slans')).toBeTruthy();
    fireEvent.click(launchButton());

    expect(await screen.findByRole('heading', { level: 2, name: 'Hecho' })).toBeTruthy();
    const [launch] = api.posts(executionPath('alta-rapida'));
    expect(launch?.body).toMatchObject({
      step: 'contrato', json: true,
      inputs: { nif: 'X1234567L', inicio: '2025-03-01', horas: 37.5, tipo: '401', acepto: true, origen: 'launcher' },
    });
    expect((launch?.body as { idempotencyKey: string }).idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    const polls = api.calls.filter((call) => call.path === statePath);
    expect(polls.map((call) => [call.query.get('wait'), call.query.get('since')])).toEqual([['20', '0'], ['20', '1']]);

    expect(screen.getByText('Altas')).toBeTruthy();
    const download = screen.getByRole('link', { name: 'Descargar altas validado.xlsx' });
    expect(download.getAttribute('href')).toBe('/api/flowlog/run-1/outputs/altas%20validado.xlsx');
    expect(screen.getByText('Coste: 2 slans')).toBeTruthy();
    expect(screen.getByText('(1 entrada × 2 slans)')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Ver consola' }));
    expect(within(screen.getByRole('log', { name: 'Consola' })).getAllByRole('listitem').map((line) => line.textContent)).toEqual(['Leyendo datos', 'Alta preparada']);
    expect(store.getState().runNotifications.latest).toMatchObject({ runId: 'run-1', flowName: 'Alta rápida', status: 200, cost: 2 });
  });

  it('a run still going when the page is left is followed to its end: the run notification tells how it went', async () => {
    let release: () => void = () => undefined;
    const finished = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { store } = renderLauncher(formFlow(), {
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState()),
      [`GET ${statePath}`]: async () => {
        await finished;
        return jsonResponse(200, runState({ state: 'finished', output: output(500, { message: 'El robot ha fallado' }) }));
      },
    });
    await fillFormFlow();
    fireEvent.click(launchButton());
    await screen.findByRole('heading', { level: 2, name: 'Trabajando' });
    fireEvent.click(screen.getByRole('button', { name: 'Volver' }));
    expect(await screen.findByRole('heading', { name: 'Robots' })).toBeTruthy();
    release();
    await waitFor(() => expect(store.getState().runNotifications.latest).toMatchObject({ runId: 'run-1', status: 500, flowName: 'Alta rápida' }));
  });

  it('Repetir clears the output and console and goes back to the start', async () => {
    renderLauncher(formFlow(), {
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState({ state: 'finished', output: output(200) })),
    });
    await fillFormFlow();
    fireEvent.click(launchButton());
    await screen.findByRole('heading', { level: 2, name: 'Hecho' });
    fireEvent.click(screen.getByRole('button', { name: 'Repetir' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Trabajador' })).toBeTruthy();
    expect(screen.queryByText('Coste: 2 slans')).toBeNull();
  });

  it.each([
    [242, 'El robot ha terminado con errores en los datos', 'La hoja no tiene filas'],
    [500, 'El robot no se ha lanzado correctamente', 'El robot ha fallado'],
    [504, 'El robot ha superado el tiempo límite', 'Tiempo límite superado'],
    [299, 'Robot interrumpido', 'Se ha cerrado el servidor'],
  ])('a run ending with %i shows the error section: %s', async (status, title, message) => {
    renderLauncher(formFlow(), {
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState()),
      [`GET ${statePath}`]: () => jsonResponse(200, runState({ state: 'finished', output: output(status, { message }) })),
    });
    await fillFormFlow();
    fireEvent.click(launchButton());
    expect(await screen.findByRole('heading', { level: 2, name: 'Fallo' })).toBeTruthy();
    expect(screen.getByRole('heading', { level: 3, name: title })).toBeTruthy();
    expect(screen.getByText(message)).toBeTruthy();
  });

  it('a launch refused with 400 shows the error section with the server\'s issues', async () => {
    renderLauncher(formFlow(), {
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(400, {
        statusCode: 400, code: 'VALIDATION', message: 'Revisa los datos del robot', issues: [{ path: 'inputs.nif', message: 'Introduce un NIF o NIE válido' }],
      }),
    });
    await fillFormFlow();
    fireEvent.click(launchButton());
    expect(await screen.findByRole('heading', { level: 3, name: 'Entradas incorrectas' })).toBeTruthy();
    expect(screen.getByText('Revisa los datos del robot')).toBeTruthy();
    expect(screen.getByText('Introduce un NIF o NIE válido')).toBeTruthy();
  });

  it('a router mapping on the launching section wins over the default transition', async () => {
    const flow = formFlow();
    flow.sectionSetup.builder[1] = { ...flow.sectionSetup.builder[1]!, router: { '242': 'persona' } };
    renderLauncher(flow, {
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState({ state: 'finished', output: output(242, { message: 'El NIF no existe en la empresa' }) })),
    });
    await fillFormFlow();
    fireEvent.click(launchButton());
    expect(await screen.findByRole('heading', { level: 2, name: 'Trabajador' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('El NIF no existe en la empresa');
  });

  it('402: the prompt shows cost and balance; Continuar re-sends on extra usage and the run goes on', async () => {
    let launches = 0;
    const { api } = renderLauncher(formFlow(), {
      [`POST ${executionPath('alta-rapida')}`]: () => {
        launches += 1;
        return launches === 1
          ? jsonResponse(402, { statusCode: 402, code: 'NOT_ENOUGH_CREDITS', message: 'No tienes suficientes slans', details: { balance: 5, estimatedCost: 30, canContinue: true, extraSlanPrice: 0.05 } })
          : jsonResponse(202, runState({ state: 'finished', output: output(200) }));
      },
    });
    await fillFormFlow();
    fireEvent.click(launchButton());
    const dialog = await screen.findByRole('dialog', { name: 'No tienes suficientes slans' });
    expect(within(dialog).getByText('Coste estimado de este robot: 30 slans. Tu saldo: 5 slans.')).toBeTruthy();
    // What the extra costs, from the plan's price, the es-ES way.
    expect(within(dialog).getByText('Si continúas, lo que supere tu saldo se cobrará como uso adicional de tu plan, a 0,05 € por slan.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continuar' }));

    expect(await screen.findByRole('heading', { level: 2, name: 'Hecho' })).toBeTruthy();
    const [first, second] = api.posts(executionPath('alta-rapida'));
    expect(first?.body).not.toHaveProperty('acceptExtraUsage');
    expect(second?.body).toMatchObject({ acceptExtraUsage: true });
  });

  it('402 without the option to continue: only Ver planes, which goes to Payments', async () => {
    renderLauncher(formFlow(), {
      [`POST ${executionPath('alta-rapida')}`]: () =>
        jsonResponse(402, { statusCode: 402, code: 'NOT_ENOUGH_CREDITS', message: 'No tienes suficientes slans', details: { balance: 0, estimatedCost: 2, canContinue: false } }),
    });
    await fillFormFlow();
    fireEvent.click(launchButton());
    const dialog = await screen.findByRole('dialog', { name: 'No tienes suficientes slans' });
    expect(within(dialog).queryByRole('button', { name: 'Continuar' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Ver planes' }));
    expect(await screen.findByRole('heading', { name: 'Pagos' })).toBeTruthy();
  });

  it('Detener stops the run: the robot ends as Robot detenido', async () => {
    let stopped = false;
    const { api } = renderLauncher(formFlow(), {
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState({ consoleLog: ['Empezando'] })),
      [`POST ${statePath}/stop`]: () => {
        stopped = true;
        return jsonResponse(200, runState());
      },
      [`GET ${statePath}`]: async () => {
        // The long poll holds until something happens: here, the stop.
        await new Promise((resolve) => setTimeout(resolve, 20));
        return jsonResponse(200, stopped ? runState({ state: 'finished', output: output(202, { cost: 0 }) }) : runState());
      },
    });
    await fillFormFlow();
    fireEvent.click(launchButton());
    expect(await screen.findByRole('heading', { level: 2, name: 'Trabajando' })).toBeTruthy();
    expect(within(screen.getByRole('log', { name: 'Consola' })).getByText('Empezando')).toBeTruthy();
    fireEvent.click(await screen.findByRole('button', { name: 'Detener' }));
    expect(await screen.findByRole('heading', { level: 3, name: 'Robot detenido' })).toBeTruthy();
    expect(api.posts(`${statePath}/stop`)).toHaveLength(1);
  });

  it('no answer to the launch: Reintentar re-sends it with the same idempotency key', async () => {
    let launches = 0;
    const { api } = renderLauncher(formFlow(), {
      [`POST ${executionPath('alta-rapida')}`]: () => {
        launches += 1;
        if (launches === 1) throw new TypeError('Failed to fetch');
        return jsonResponse(202, runState({ state: 'finished', output: output(200) }));
      },
    });
    await fillFormFlow();
    fireEvent.click(launchButton());
    expect(await screen.findByText(/No se ha podido conectar con el servidor/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Hecho' })).toBeTruthy();
    const keys = api.posts(executionPath('alta-rapida')).map((call) => (call.body as { idempotencyKey: string }).idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[1]).toBe(keys[0]);
  });

  it('each new launch gets a new idempotency key', async () => {
    const { api } = renderLauncher(formFlow(), {
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState({ state: 'finished', output: output(200) })),
    });
    await fillFormFlow();
    fireEvent.click(launchButton());
    await screen.findByRole('heading', { level: 2, name: 'Hecho' });
    fireEvent.click(screen.getByRole('button', { name: 'Repetir' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Siguiente' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Lanzar tarea' }));
    await screen.findByRole('heading', { level: 2, name: 'Hecho' });
    const keys = api.posts(executionPath('alta-rapida')).map((call) => (call.body as { idempotencyKey: string }).idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(keys[1]).not.toBe(keys[0]);
  });

  it('with no output section to go to, the fallback text shows', async () => {
    const flow = formFlow();
    flow.sectionSetup.builder = flow.sectionSetup.builder.filter((section) => section.template !== 'OutputSection');
    renderLauncher(flow, {
      [`POST ${executionPath('alta-rapida')}`]: () => jsonResponse(202, runState({ state: 'finished', output: output(200) })),
    });
    await fillFormFlow();
    fireEvent.click(launchButton());
    expect(await screen.findByText('Oops!  Something went wrong.', { normalizer: (value) => value })).toBeTruthy();
  });

  it('Programar checks the inputs, then schedules them on the Madrid clock with a success toast', async () => {
    const { api } = renderLauncher(formFlow(), {
      'POST /api/browserflow/schedule/alta-rapida': (call) => jsonResponse(201, {
        _id: 's1', browserFlowName: 'Alta rápida', browserFlow: 'alta-rapida', localProcess: null,
        scheduledDate: (call.body as { scheduledDate: string }).scheduledDate, repeat: false, every: 1, interval: 'days',
        user: { email: 'ana@asesoria.es', name: 'Ana' }, machine: null, flowInputs: {}, sendOutputToServer: true, updatedAt: '2025-03-01T10:00:00.000Z',
      }),
    });
    fireEvent.change(await screen.findByLabelText(/^NIF/), { target: { value: 'X1234567L' } });
    fireEvent.click(screen.getByRole('button', { name: 'Siguiente' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Programar' }));
    await waitFor(() => expect(screen.getAllByText('Este campo es obligatorio').length).toBeGreaterThan(0));
    expect(screen.queryByRole('dialog')).toBeNull();

    fireEvent.change(screen.getByLabelText(/^Fecha de inicio/), { target: { value: '2025-03-01' } });
    fireEvent.change(screen.getByLabelText(/^Tipo de contrato/), { target: { value: '100' } });
    if (!(screen.getByLabelText(/^He revisado los datos/) as HTMLInputElement).checked) fireEvent.click(screen.getByLabelText(/^He revisado los datos/));
    fireEvent.click(screen.getByRole('button', { name: 'Programar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Elige fecha y hora' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Programar tarea' }));

    expect(await screen.findByText(/^Robot programado para el \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/)).toBeTruthy();
    const [scheduled] = api.posts('/api/browserflow/schedule/alta-rapida');
    expect(scheduled?.body).toMatchObject({ repeat: false, flowInputs: { nif: 'X1234567L', tipo: '100', acepto: true, inicio: '2025-03-01' } });
    expect(new Date((scheduled?.body as { scheduledDate: string }).scheduledDate).getTime()).toBeGreaterThan(Date.now());
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Elige fecha y hora' })).toBeNull());
  });

  it("a schedule the server refuses shows 'No se ha podido programar este robot'", async () => {
    renderLauncher(formFlow(), {
      'POST /api/browserflow/schedule/alta-rapida': () => jsonResponse(400, { statusCode: 400, code: 'VALIDATION', message: 'Fecha no válida' }),
    });
    await fillFormFlow();
    fireEvent.click(screen.getByRole('button', { name: 'Programar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Elige fecha y hora' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Programar tarea' }));
    expect(await screen.findByText('No se ha podido programar este robot')).toBeTruthy();
  });
});
