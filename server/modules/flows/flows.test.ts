import { existsSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { FlowSummary } from '#shared/api/flows.ts';
import { buildApp } from '../../app.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { FlowCatalogue, type BuiltInFlow } from './catalogue.ts';
import { DESKTOP_FLOW_ID, SHORT_FLOW_ID, TEST_FLOW_ID, builtInFlows as testFlows } from './test-flows/index.ts';

const unusedRobot = async () => {
  throw new Error('no se carga en estas pruebas');
};

describe('the flow catalogue', () => {
  it('stops the server with a Spanish error that names a flow with a bad definition', () => {
    const bad: BuiltInFlow = { definition: { ...(testFlows[0]?.definition as object), id: 'robot-roto', usageRatio: -1 }, loadRobot: unusedRobot };
    expect(() => new FlowCatalogue([bad])).toThrow(/La definición del robot "robot-roto" no es válida: usageRatio/);
    const brokenRouter = structuredClone(testFlows[0]?.definition) as { id: string; sectionSetup: { builder: { router?: Record<string, string> }[] } };
    brokenRouter.id = 'robot-perdido';
    (brokenRouter.sectionSetup.builder[0] ?? {}).router = { '200': 'no-existe' };
    expect(() => new FlowCatalogue([{ definition: brokenRouter, loadRobot: unusedRobot }])).toThrow(/"robot-perdido".*no-existe/);
    expect(() => new FlowCatalogue([testFlows[0] as BuiltInFlow, testFlows[0] as BuiltInFlow])).toThrow(/mismo id: "robot-de-pruebas"/);
  });

  it('loads the built-in flows of resources/flows, templates found from the repository root', async () => {
    const { builtInFlows } = await import('../../../resources/flows/index.ts');
    const catalogue = new FlowCatalogue(builtInFlows);
    expect(catalogue.ids()).toContain('validar-identificadores');
    const templatePath = catalogue.get('validar-identificadores')?.templatePath;
    expect(templatePath).toMatch(/resources\/flows\/validar-identificadores\/plantilla\.xlsx$/);
    expect(existsSync(templatePath ?? '')).toBe(true);
  });
});

describe('/api/browserflow/flow', () => {
  let server: TestServer;
  afterEach(async () => server.close());

  it('lists the active flows to a signed-in user, with what the library shows', async () => {
    server = await startTestServer({ flows: testFlows });
    expect((await server.app.inject({ method: 'GET', url: '/api/browserflow/flow' })).statusCode).toBe(401);
    const jar = await registerUser(server.app, 'catalogo@asesoria.es');
    const { items } = (await jar.get('/api/browserflow/flow')).json() as { items: FlowSummary[] };
    expect(items.map((flow) => flow.id)).toEqual([TEST_FLOW_ID, SHORT_FLOW_ID, DESKTOP_FLOW_ID]);
    expect(items[0]).toEqual({
      id: TEST_FLOW_ID,
      name: 'Robot de pruebas',
      description: 'Hace lo que se le pide',
      group: 'Pruebas',
      usageRatio: 2,
      usageMeasureUnit: 'fila|filas',
      runsOn: 'server',
      hasTemplate: true,
      hasInstructions: true,
    });
    expect(items[2]?.runsOn).toBe('desktop');
  });

  it('answers one flow’s definition, and the spec’s 404 for an unknown one', async () => {
    server = await startTestServer({ flows: testFlows });
    const jar = await registerUser(server.app, 'uno@asesoria.es');
    const flow = await jar.get(`/api/browserflow/flow/${TEST_FLOW_ID}`);
    expect(flow.statusCode).toBe(200);
    expect(flow.json()).toMatchObject({ id: TEST_FLOW_ID, timeLimitSeconds: 60, sectionSetup: { builder: [{ ref: 'datos' }, { ref: 'resultado' }] } });
    expect(flow.body).not.toContain('loadRobot');
    const unknown = await jar.get('/api/browserflow/flow/no-existe');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'FLOW_NOT_FOUND', message: 'Este robot ya no forma parte de nuestra familia' });
    expect((await jar.get(`/api/browserflow/flow/${'x'.repeat(65)}`)).statusCode).toBe(400);
  });

  it('offers the template as a download, and a 404 for a flow without one', async () => {
    server = await startTestServer({ flows: testFlows });
    const jar = await registerUser(server.app, 'plantilla@asesoria.es');
    const template = await jar.get(`/api/browserflow/flow/template/${TEST_FLOW_ID}`);
    expect(template.statusCode).toBe(200);
    expect(template.headers['content-disposition']).toContain('attachment; filename="plantilla.csv"');
    expect(template.body).toBe('NIF;Nombre\n12345678Z;Ana\n');
    const none = await jar.get(`/api/browserflow/flow/template/${SHORT_FLOW_ID}`);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ code: 'TEMPLATE_NOT_FOUND' });
    expect((await jar.get('/api/browserflow/flow/template/no-existe')).statusCode).toBe(404);
  });

  it('keeps table flows in step: a flow whose folder is gone is inactive and no longer offered', async () => {
    server = await startTestServer({ flows: testFlows });
    const jar = await registerUser(server.app, 'retirado@asesoria.es');
    expect(server.countRows('flows')).toBe(3);
    // The same database started again without one of the flows (a folder removed in an update).
    await server.app.close();
    const again = await buildApp({ database: server.database, storageDir: `${server.dir}/storage`, webRoot: '/nonexistent', publicUrl: 'http://app.test', cookieSecure: false, allowedOrigins: [], flows: testFlows.slice(0, 2) });
    try {
      const flows = await again.inject({ method: 'GET', url: '/api/browserflow/flow', headers: { cookie: `aa_session=${jar.value('aa_session')}` } });
      expect((flows.json() as { items: FlowSummary[] }).items.map((flow) => flow.id)).toEqual([TEST_FLOW_ID, SHORT_FLOW_ID]);
      expect(server.countRows('flows')).toBe(3);
      const gone = await again.inject({ method: 'GET', url: `/api/browserflow/flow/${DESKTOP_FLOW_ID}`, headers: { cookie: `aa_session=${jar.value('aa_session')}` } });
      expect(gone.statusCode).toBe(404);
    } finally {
      await again.close();
    }
  });
});
