import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALTAS_FLOW_ID, altasPaths, URL_IN_USE_MESSAGE, type FormConfiguration, type FormDefinition, type FormSettings } from '#shared/api/altas.ts';
import { registerUser, startTestServer, type TestServer } from '../../test/harness.ts';
import { ALTAS_TABLES, PNG, multipart, saveSettings, storedFiles } from './test-support.ts';

let server: TestServer;
beforeEach(async () => {
  server = await startTestServer();
});
afterEach(async () => server.close());

const definitionPath = altasPaths.formDefinition.replace(':flowId', ALTAS_FLOW_ID);
const configurationPath = altasPaths.formConfiguration.replace(':flowId', ALTAS_FLOW_ID);

describe('form definition and configuration', () => {
  it('needs a session and knows only the alta flow', async () => {
    expect((await server.app.inject({ method: 'GET', url: definitionPath })).statusCode).toBe(401);
    expect((await server.app.inject({ method: 'GET', url: altasPaths.formSettings })).statusCode).toBe(401);
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    expect((await ana.get(altasPaths.formDefinition.replace(':flowId', 'otro'))).statusCode).toBe(404);
  });

  it('answers the built-in form with the firm overrides, and refuses loosening a locked field', async () => {
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    const definition = (await ana.get(definitionPath)).json<FormDefinition>();
    expect(definition.fields.CCC).toMatchObject({ fieldType: 'dropdown', required: true, locked: true, validValuesFromExtraFields: { field: 'CCC' } });
    expect(definition.fields['Tipo Contrato*']).toMatchObject({ fieldWriter: 'userBefore', dependentKey: 'Jornada' });
    expect(definition.defaultFormPages.map((page) => page.title)).toEqual(['Datos personales', 'Contrato', 'Documentos']);

    const configuration = (await ana.get(configurationPath)).json<FormConfiguration>();
    const before = server.countTables(ALTAS_TABLES);
    const locked = await ana.patch(configurationPath, { name: 'Altas', formPages: configuration.formPages, fields: { CCC: { required: false } } });
    expect(locked.statusCode).toBe(400);
    expect(locked.json().issues[0]).toMatchObject({ path: 'fields.CCC' });
    const unknownPage = await ana.patch(configurationPath, { name: 'Altas', formPages: [{ title: 'Uno', fields: ['inventado'] }] });
    expect(unknownPage.statusCode).toBe(400);
    expect(server.countTables(ALTAS_TABLES)).toEqual(before);

    const saved = await ana.patch(configurationPath, { name: 'Altas hostelería', formPages: [{ title: 'Todo', fields: ['nombre', 'PrimerApellido', 'CCC'] }], fields: { SegundoApellido: { required: true } } });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<FormConfiguration>()).toMatchObject({ name: 'Altas hostelería', fields: { SegundoApellido: { required: true } } });
    const effective = (await ana.get(definitionPath)).json<FormDefinition>();
    expect(effective.fields.SegundoApellido?.required).toBe(true);
    expect(effective.defaultFormPages).toEqual([{ title: 'Todo', fields: ['nombre', 'PrimerApellido', 'CCC'] }]);
    // Another firm still has the built-in form.
    const eva = await registerUser(server.app, 'eva@gestoria.es');
    expect((await eva.get(definitionPath)).json<FormDefinition>().fields.SegundoApellido?.required).toBeUndefined();
  });
});

describe('form settings', () => {
  it('saves title, URL and a logo, and serves the logo publicly', async () => {
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    const response = await saveSettings(ana, { title: 'Altas de trabajadores', url: '/form/flows/asesoria-ana' }, { filename: 'logo.png', data: PNG });
    expect(response.statusCode, response.body).toBe(200);
    const settings = response.json<FormSettings>();
    expect(settings).toMatchObject({ title: 'Altas de trabajadores', url: '/form/flows/asesoria-ana' });
    expect(settings.logo).toMatch(/^\/api\/users\/formToFlow\/logo\//);
    const logo = await server.app.inject({ method: 'GET', url: settings.logo ?? '' });
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['x-content-type-options']).toBe('nosniff');
    expect(logo.rawPayload.equals(PNG)).toBe(true);
    expect((await ana.get(altasPaths.formSettings)).json<FormSettings>()).toEqual(settings);

    // Saving without a file keeps the logo; removeLogo drops it.
    expect((await saveSettings(ana, { title: 'Altas', url: 'asesoria-ana' })).json<FormSettings>().logo).toBe(settings.logo);
    const { payload, headers } = multipart([{ name: 'title', value: 'Altas' }, { name: 'url', value: 'asesoria-ana' }, { name: 'removeLogo', value: 'true' }]);
    expect((await ana.request({ method: 'PUT', url: altasPaths.formSettings, payload, headers })).json<FormSettings>().logo).toBeNull();
    expect((await server.app.inject({ method: 'GET', url: settings.logo ?? '' })).statusCode).toBe(404);
    expect((await server.app.inject({ method: 'GET', url: altasPaths.formLogo.replace(':id', 'no-existe') })).statusCode).toBe(404);
  });

  it('refuses a logo whose bytes are not an image, a bad slug, and a URL another firm has (409), writing nothing', async () => {
    const ana = await registerUser(server.app, 'ana@asesoria.es');
    const eva = await registerUser(server.app, 'eva@gestoria.es');
    expect((await saveSettings(ana, { title: 'Altas', url: 'asesoria' })).statusCode).toBe(200);
    const before = server.countTables(ALTAS_TABLES);
    const textLogo = await saveSettings(eva, { title: 'Altas', url: 'gestoria' }, { filename: 'logo.png', data: 'esto no es una imagen' });
    // Content that is not what its name says: 415, as every upload (README).
    expect(textLogo.statusCode).toBe(415);
    expect(textLogo.json().message).toBe('No es un archivo .png: su contenido es de otro tipo. El logo debe ser una imagen PNG, JPG, WEBP o GIF');
    const htmlLogo = await saveSettings(eva, { title: 'Altas', url: 'gestoria' }, { filename: 'logo.html', data: '<html><script>alert(1)</script></html>' });
    expect(htmlLogo.statusCode).toBe(415);
    expect(htmlLogo.json().message).toBe('El logo debe ser una imagen PNG, JPG, WEBP o GIF');
    const badSlug = await saveSettings(eva, { title: 'Altas', url: 'Mi Formulario!' });
    expect(badSlug.statusCode).toBe(400);
    const missingTitle = await saveSettings(eva, { title: '', url: 'gestoria' });
    expect(missingTitle.statusCode).toBe(400);
    const clash = await saveSettings(eva, { title: 'Altas', url: '/form/flows/asesoria' }, { filename: 'logo.png', data: PNG });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().message).toBe(URL_IN_USE_MESSAGE);
    const evaSettings = (await eva.get(altasPaths.formSettings)).json<FormSettings>();
    expect(evaSettings).toEqual({ title: null, url: null, logo: null });
    // Eva's GET created her (empty) form row; nothing else was written.
    expect(server.countTables(ALTAS_TABLES)).toEqual({ ...before, altas_forms: (before.altas_forms ?? 0) + 1 });
    const tooLarge = await saveSettings(eva, { title: 'Altas', url: 'gestoria' }, { filename: 'logo.png', data: Buffer.concat([PNG, Buffer.alloc(1_000_001)]) });
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().message).toBe('El logo supera el tamaño máximo de 1 MB');
    expect((await eva.get(altasPaths.formSettings)).json<FormSettings>().logo).toBeNull();
    const json = await eva.put(altasPaths.formSettings, { title: 'Altas', url: 'gestoria' });
    expect(json.statusCode).toBe(415);
    // Nothing of the refused logos stayed on disk.
    expect(await storedFiles(server)).toEqual([]);
  });
});
