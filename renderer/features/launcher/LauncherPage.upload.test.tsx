import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen } from '@testing-library/react';
import { FakeXhr } from '../../test/fakeXhr.ts';
import { jsonResponse } from '../../test/renderApp.tsx';
import { preloadModal } from '../../ui/Modal.tsx';
import { workbookFlow } from './test/flowFixture.ts';
import { output, runState } from './test/launcherApi.ts';
import { executionPath, launchButton, renderLauncher } from './test/renderLauncher.tsx';

// The dialog code loads lazily; fetch it once so the first dialog of a busy run opens in time.
beforeAll(() => preloadModal());

afterEach(() => vi.unstubAllGlobals());

/** XMLHttpRequest as the upload uses it, answering with `FakeUpload.answer` after one progress event. */
class FakeUpload extends FakeXhr {
  static answer: { status: number; body: unknown } = { status: 201, body: { items: [] } };
  static sent: FormData[] = [];
  send(form: FormData) {
    FakeUpload.sent.push(form);
    setTimeout(() => this.answer({ loaded: 50, total: 100 }, FakeUpload.answer.status, FakeUpload.answer.body), 5);
  }
}

describe('LauncherPage with a workbook', { timeout: 15_000 }, () => {
  const uploadId = '1b4e28ba-2fa1-11d2-883f-0016d3cca427';
  const workbook = () => new File([new Uint8Array(2048)], ' plantilla: trabajadores?.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });

  it('uploads the workbook, preselects its columns, estimates the cost from its rows and launches with the upload by id', async () => {
    FakeUpload.sent = [];
    FakeUpload.answer = { status: 201, body: { items: [{ id: uploadId, name: 'plantilla trabajadores.xlsx', size: 2048 }] } };
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    const { api } = renderLauncher(workbookFlow(), {
      [`GET /api/storage/uploads/${uploadId}/columns`]: () => jsonResponse(200, { sheet: 'Trabajadores', columns: ['Nombre', 'DNI', 'Nº Seguridad Social'], rowCount: 250 }),
      [`POST ${executionPath('validar-identificadores')}`]: () => jsonResponse(202, runState({ state: 'finished', output: output(200, { cost: 3, usageUnits: 3, usageRatio: 1 }) })),
    });
    expect(await screen.findByText('El coste estimado aparecerá al subir el archivo.')).toBeTruthy();
    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [workbook()] } });

    expect(await screen.findByText('Coste estimado: 3 slans')).toBeTruthy();
    expect(screen.getByText(/Calculado sobre 250 filas/)).toBeTruthy();
    expect(screen.getByText('Archivo subido')).toBeTruthy();
    expect(screen.getByText('Hoja «Trabajadores»: 250 filas de datos.')).toBeTruthy();
    expect((screen.getByLabelText('NIF/NIE') as HTMLSelectElement).value).toBe('DNI');
    expect((screen.getByLabelText('NAF') as HTMLSelectElement).value).toBe('Nº Seguridad Social');
    const part = FakeUpload.sent[0]?.get('file') as File;
    expect(part.name).toBe('plantilla trabajadores.xlsx');

    fireEvent.change(screen.getByLabelText('NAF'), { target: { value: '' } });
    fireEvent.click(launchButton());
    await screen.findByRole('heading', { level: 2, name: 'Resultado' });
    expect(api.posts(executionPath('validar-identificadores'))[0]?.body).toMatchObject({
      inputs: { workbook: [{ uploadId, name: 'plantilla trabajadores.xlsx' }], columns: { nif: 'DNI', naf: null } },
    });
  });

  it('a refused upload shows the server\'s message and keeps no file', async () => {
    FakeUpload.answer = { status: 415, body: { statusCode: 415, code: 'UNSUPPORTED_TYPE', message: 'Este tipo de archivo no está permitido' } };
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    const { api } = renderLauncher(workbookFlow());
    fireEvent.change(await screen.findByTestId('file-input'), { target: { files: [workbook()] } });
    expect(await screen.findAllByText('Este tipo de archivo no está permitido')).not.toHaveLength(0);
    fireEvent.click(launchButton());
    expect(await screen.findAllByText('Este campo es obligatorio')).toHaveLength(2);
    expect(screen.queryByText('Archivo subido')).toBeNull();
    expect(api.posts(executionPath('validar-identificadores'))).toHaveLength(0);
  });

  it("a selection over the size limit is refused before uploading, with the 'filesizeexceeded' toast", async () => {
    FakeUpload.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    const flow = workbookFlow();
    flow.sectionSetup.builder[1]!.builder[0]!.config = { accept: '.xlsx', maxSize: 1000 };
    renderLauncher(flow);
    fireEvent.change(await screen.findByTestId('file-input'), { target: { files: [workbook()] } });
    expect(await screen.findAllByText('Los archivos ocupan 2 kB y el máximo permitido es 1 kB.')).toHaveLength(2);
    expect(FakeUpload.sent).toHaveLength(0);
  });

  it('refuses an empty workbook before launching (headers unknown: launch-checks tests); the template link sits beside the input', async () => {
    FakeUpload.answer = { status: 201, body: { items: [{ id: uploadId, name: 'plantilla trabajadores.xlsx', size: 2048 }] } };
    vi.stubGlobal('XMLHttpRequest', FakeUpload);
    const answer = { sheet: 'Trabajadores', columns: ['Nombre', 'DNI'], rowCount: 0 };
    const flow = { ...workbookFlow(), template: 'plantilla.xlsx' };
    const { api } = renderLauncher(flow, {
      [`GET /api/storage/uploads/${uploadId}/columns`]: () => jsonResponse(200, answer),
    });
    const template = await screen.findByRole('link', { name: 'Descargar plantilla' });
    expect(template.getAttribute('href')).toBe('/api/browserflow/flow/template/validar-identificadores');
    expect(template.hasAttribute('download')).toBe(true);

    fireEvent.change(screen.getByTestId('file-input'), { target: { files: [workbook()] } });
    expect(await screen.findByText('La hoja «Trabajadores» no tiene filas de datos: añade al menos una fila debajo de los encabezados.')).toBeTruthy();
    fireEvent.click(launchButton());
    await screen.findByText('La hoja «Trabajadores» no tiene filas de datos: añade al menos una fila debajo de los encabezados.');
    expect(api.posts(executionPath('validar-identificadores'))).toHaveLength(0);

  });
});
