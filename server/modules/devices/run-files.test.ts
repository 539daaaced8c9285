import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LEASE_LOST_MESSAGE, RUN_FILE_NOT_FOUND_MESSAGE, devicesPaths } from '#shared/api/devices.ts';
import { pathFor, type ExecutionStateResponse, type UploadedFile } from '#shared/api/flows.ts';
import { registerUser, startTestServer, type CookieJar, type TestServer } from '../../test/harness.ts';
import { builtInFlows as testFlows } from '../flows/test-flows/index.ts';
import { withDatabase } from '../machines/test-support.ts';
import { TEST_FLOWS_CONFIG, launch, upload } from '../runs/test-support.ts';
import { DeviceClient, linkPc } from './test-support.ts';

/** A desktop flow that takes the user's files (FileUpload) besides a folder picked on the PC. */
const FILES_FLOW_ID = 'robot-de-escritorio-con-archivos';
const filesFlow = {
  id: FILES_FLOW_ID,
  name: 'Robot de escritorio con archivos',
  description: 'Presenta los documentos subidos',
  group: 'Pruebas',
  instructions: '## Pruebas',
  usageRatio: 1,
  usageMeasureUnit: 'documento|documentos',
  runsOn: 'desktop',
  timeLimitSeconds: 60,
  flowInputs: [],
  sectionSetup: {
    builder: [
      {
        ref: 'datos', template: 'InputComponents', title: 'Datos', execution: true,
        builder: [
          { key: 'documentos', template: 'FileUpload', label: 'Documentos', required: true, config: { multiple: true, accept: '.pdf,.csv' } },
          { key: 'anexo', template: 'FileUpload', label: 'Anexo', config: { accept: '.pdf' } },
          { key: 'nota', template: 'Text', label: 'Nota' },
        ],
      },
      { ref: 'resultado', template: 'OutputSection', title: 'Resultado', builder: [] },
    ],
  },
};

const PDF = '%PDF-1.4 justificante de marzo';
const CSV = 'NIF;Importe\n12345678Z;100,00\n';

let server: TestServer;
let ana: CookieJar;
let machineId: string;
let device: DeviceClient;

beforeEach(async () => {
  server = await startTestServer({ ...TEST_FLOWS_CONFIG, flows: [...testFlows, { definition: filesFlow }] });
  ana = await registerUser(server.app, 'ana@asesoria.es', 'Ana Pérez');
  const link = await linkPc(ana, 'despacho', 'PC del despacho');
  machineId = link.machine._id;
  device = new DeviceClient(server, link.deviceToken);
});
afterEach(async () => server.close());

const fileUrl = (runId: string, uploadId: string) => pathFor(devicesPaths.runFile, { runId, uploadId });
const asInput = (files: readonly UploadedFile[]) => files.map((file) => ({ uploadId: file.id, name: file.name }));

/** Uploads the two documents, launches the flow with them on Ana's PC, and returns the run and its uploads. */
async function launchWithFiles() {
  const documents = await upload(ana, [{ name: 'justificante marzo.pdf', data: PDF }, { name: 'importes.csv', data: CSV }]);
  const response = await launch(ana, FILES_FLOW_ID, { documentos: asInput(documents), nota: 'urgente' }, { machineId });
  expect(response.statusCode, response.body).toBe(202);
  return { queued: response.json() as ExecutionStateResponse, documents };
}

describe('the files of a FileUpload input, for the machine that runs the robot', () => {
  it('leases the run naming its file inputs, and streams each upload with its type and size', async () => {
    const { queued, documents } = await launchWithFiles();
    const run = await device.leaseNext(0);
    expect(run).toMatchObject({ runId: queued.runId, fileInputs: ['documentos', 'anexo'], inputs: { documentos: asInput(documents), anexo: [], nota: 'urgente' } });

    const [pdf, csv] = documents as [UploadedFile, UploadedFile];
    const first = await device.get(fileUrl(run.runId, pdf.id));
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/pdf');
    expect(first.headers['content-length']).toBe(String(Buffer.byteLength(PDF)));
    expect(first.body).toBe(PDF);
    const second = await device.get(fileUrl(run.runId, csv.id));
    expect(second.statusCode).toBe(200);
    expect(second.rawPayload.equals(Buffer.from(CSV))).toBe(true);
  });

  it('answers 404 for another machine, a run not leased yet, and an upload the run does not name (even the firm’s own)', async () => {
    const { queued, documents } = await launchWithFiles();
    const pdf = documents[0] as UploadedFile;
    // Queued, not leased yet: nothing to download.
    const early = await device.get(fileUrl(queued.runId, pdf.id));
    expect(early.statusCode).toBe(404);

    await device.leaseNext(0);
    const laptop = new DeviceClient(server, (await linkPc(ana, 'portátil')).deviceToken);
    const foreignMachine = await laptop.get(fileUrl(queued.runId, pdf.id));
    expect(foreignMachine.statusCode).toBe(404);
    expect(foreignMachine.body).not.toContain('%PDF');

    const [unrelated] = await upload(ana, [{ name: 'otro.pdf', data: '%PDF-1.4 de otra ejecución' }]);
    const foreignUpload = await device.get(fileUrl(queued.runId, (unrelated as UploadedFile).id));
    expect(foreignUpload.statusCode).toBe(404);
    expect(foreignUpload.json()).toMatchObject({ code: 'RUN_FILE_NOT_FOUND', message: RUN_FILE_NOT_FOUND_MESSAGE });

    // Another firm's device never reaches it either, and no token at all is a 401.
    const eva = await registerUser(server.app, 'eva@otra.es');
    const outsider = new DeviceClient(server, (await linkPc(eva, 'fuera')).deviceToken);
    expect((await outsider.get(fileUrl(queued.runId, pdf.id))).statusCode).toBe(404);
    expect((await server.app.inject({ method: 'GET', url: fileUrl(queued.runId, pdf.id) })).statusCode).toBe(401);
    expect((await device.get(fileUrl('no-es-un-id', pdf.id))).statusCode).toBe(400);
    expect((await device.get(fileUrl(queued.runId, 'no-es-un-id'))).statusCode).toBe(400);
  });

  it('answers 404 once the upload itself is gone', async () => {
    const { documents } = await launchWithFiles();
    const run = await device.leaseNext(0);
    const pdf = documents[0] as UploadedFile;
    await withDatabase(server, (db) => db.deleteFrom('stored_files').where('id', '=', pdf.id).execute());
    expect((await device.get(fileUrl(run.runId, pdf.id))).statusCode).toBe(404);
  });

  it('answers 409 once the lease is lost: expired, or the run closed', async () => {
    const { documents } = await launchWithFiles();
    const run = await device.leaseNext(0);
    const pdf = documents[0] as UploadedFile;
    await withDatabase(server, (db) => db.updateTable('flow_runs').set({ lease_until: new Date(Date.now() - 1000).toISOString() }).where('id', '=', run.runId).execute());
    const expired = await device.get(fileUrl(run.runId, pdf.id));
    expect(expired.statusCode).toBe(409);
    expect(expired.json()).toMatchObject({ code: 'LEASE_LOST', message: LEASE_LOST_MESSAGE });

    await withDatabase(server, (db) => db.updateTable('flow_runs').set({ lease_until: new Date(Date.now() + 60_000).toISOString() }).where('id', '=', run.runId).execute());
    expect((await device.get(fileUrl(run.runId, pdf.id))).statusCode).toBe(200);
    expect((await device.finish(run.runId, { kind: 'failed', message: 'No se ha podido descargar' })).statusCode).toBe(200);
    expect((await device.get(fileUrl(run.runId, pdf.id))).statusCode).toBe(409);
  });
});
