/**
 * The macro player against the test site in a real Chromium: the certificate login, a paginated table,
 * an upload, a download, a loop over a workbook with a bad row, a broken locator, a password that is
 * not on this machine, a stop, and a definition that does not parse.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MacroDefinition } from '#shared/macros/definition.ts';
import { MACRO_DEFINITION_INPUT } from '#shared/macros/to-flow.ts';
import { DOWNLOAD_NAME, DOWNLOAD_TEXT, LIST_HEADER, LIST_ROWS, listRow, MACRO_SITE_PASSWORD, startMacroSite, type MacroSite } from '../../standins/macro-site/site.ts';
import { createPkcs12, createTestCertificate } from '../certificates/testing/spanish-certificates.ts';
import { browserLaunchOptions, RobotBrowsers } from '../robots/sdk/browser.ts';
import { createDesktopRobotContext } from '../robots/sdk/context.ts';
import { playMacroRun, STOPPED_MESSAGE, type SecretReader } from './player.ts';
import { SECRET_MISSING_MESSAGE } from './secrets.ts';
import { browserContext, chromiumFound, chromiumPath, macro, nifOf, sheetsOf, workbookFile } from './testing.ts';

const noSecrets: SecretReader = { reveal: async () => null };

describe.skipIf(!chromiumFound)('the macro player on the test site', () => {
  let site: MacroSite;
  let browser: Browser;
  beforeAll(async () => {
    site = await startMacroSite();
    browser = await chromium.launch(browserLaunchOptions('linux', chromiumPath, {}));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  async function play(definition: MacroDefinition, parts: Parameters<typeof browserContext>[1] = {}, secrets: SecretReader = noSecrets) {
    const run = browserContext(browser, { ...parts, inputs: { ...parts.inputs, [MACRO_DEFINITION_INPUT]: definition } });
    try {
      return { result: await playMacroRun(run.context, secrets), log: run.log };
    } finally {
      await run.close();
    }
  }

  it('logs in with the chosen certificate (mutual TLS) and copies the welcome', async () => {
    const certificate = createTestCertificate({ nif: '78816596N', givenName: 'ELENA', surnames: 'RODRIGUEZ GARCIA', keyType: 'ec' });
    const pfx = createPkcs12(certificate, 'clave');
    const definition = macro({
      startUrl: site.httpsUrl!,
      certificate: { input: 'certificado', origins: [site.httpsUrl!] },
      inputs: [{ key: 'certificado', label: 'Certificado', kind: 'certificate', required: true }],
      steps: [
        { id: 's1', type: 'click', target: 'internal:role=link[name="Acceder con certificado"i]' },
        { id: 's2', type: 'extractText', target: 'internal:testid=[data-testid="bienvenida"s]', column: 'Titular' },
      ],
    });
    const inputs = { certificado: certificate.fingerprint, [MACRO_DEFINITION_INPUT]: definition };
    const browsers = new RobotBrowsers({
      launchOptions: browserLaunchOptions('linux', chromiumPath, {}),
      inputs,
      ignoreHTTPSErrors: true,
      clientCertificate: async (fingerprint) => {
        expect(fingerprint).toBe(certificate.fingerprint);
        return { pfx: Buffer.from(pfx), passphrase: 'clave' };
      },
      launched: Promise.resolve(browser),
    });
    const lines: string[] = [];
    const context = createDesktopRobotContext(
      { inputs, files: {}, settings: {}, startedAt: new Date(), signal: new AbortController().signal, browsers },
      { log: (_level, text) => lines.push(text), progress: () => undefined },
    );
    // The shared browser stays open: only this run's context closes.
    const result = await playMacroRun(context, noSecrets).finally(() => Promise.allSettled((browsers as unknown as { contexts: { close(): Promise<void> }[] }).contexts.map((made) => made.close())));
    expect(result.message).toBeUndefined();
    expect(result.result).toBe('Success');
    expect(result.usageUnits).toBe(1);
    expect(lines).toContain('Paso 1: Hacer clic en enlace «Acceder con certificado»');
    expect(sheetsOf(result.outputs[0]!.data)['Resultado']).toEqual([['Titular'], [expect.stringContaining('78816596N')]]);
  }, 60_000);

  it('copies a paginated table of 25 rows, 10 a page, following «Siguiente», into Datos', async () => {
    const { result, log } = await play(macro({
      startUrl: `${site.url}/listado`,
      steps: [{ id: 'r', type: 'repeatWhile', target: 'internal:role=link[name="Siguiente"i]', maxTimes: 10, steps: [{ id: 't', type: 'extractTable', target: 'internal:role=table[name="Empresas"i]' }] }],
    }));
    expect(result.result).toBe('Success');
    const sheets = sheetsOf(result.outputs.find((file) => file.name === 'resultado.xlsx')!.data);
    expect(sheets['Datos']).toEqual([[...LIST_HEADER], ...Array.from({ length: LIST_ROWS }, (_, index) => listRow(index))]);
    expect(log.lines.filter((line) => line.text === 'Paso 2: Copiar una tabla al resultado (tabla «Empresas»)')).toHaveLength(3);
  }, 60_000);

  it('uploads the launch\'s file and reads back its name and size; a download becomes an output', async () => {
    const bytes = new TextEncoder().encode('contenido del fichero de prueba');
    const { result } = await play(
      macro({
        startUrl: `${site.url}/subir`,
        inputs: [{ key: 'fichero', label: 'Fichero', kind: 'file', required: true }],
        steps: [
          { id: 'u', type: 'upload', target: 'internal:label="Fichero"i', input: 'fichero' },
          { id: 'c', type: 'click', target: 'internal:role=button[name="Enviar"i]' },
          { id: 'n', type: 'extractText', target: 'internal:testid=[data-testid="nombre-fichero"s]', column: 'Nombre' },
          { id: 't', type: 'extractText', target: 'internal:testid=[data-testid="tamano-fichero"s]', column: 'Tamaño' },
          { id: 'g', type: 'goto', url: { kind: 'text', text: `${site.url}/descargas` } },
          { id: 'd', type: 'download', target: 'internal:role=link[name="Descargar informe"i]' },
        ],
      }),
      { files: { fichero: [{ name: 'nominas.txt', data: bytes }] } },
    );
    expect(result.result).toBe('Success');
    expect(result.outputs.map((file) => file.name)).toEqual(['resultado.xlsx', DOWNLOAD_NAME]);
    expect(sheetsOf(result.outputs[0]!.data)['Resultado']).toEqual([['Nombre', 'Tamaño'], ['nominas.txt', String(bytes.length)]]);
    expect(new TextDecoder().decode(result.outputs[1]!.data)).toBe(DOWNLOAD_TEXT);
  }, 60_000);

  it('loops over a 30-row workbook: each row gets its number or, for the bad NIF, the reason and a screenshot', async () => {
    const rows = Array.from({ length: 30 }, (_, index) => [index === 11 ? '12345678A' : nifOf(20_000_000 + index), `Persona ${index + 1}`]);
    const definition = macro({
      startUrl: `${site.url}/alta`,
      charge: { per: 'row', slans: 1 },
      inputs: [{ key: 'plantilla', label: 'Plantilla', kind: 'workbook', required: true }],
      steps: [{
        id: 'loop', type: 'forEachRow', input: 'plantilla', steps: [
          { id: 'g', type: 'goto', url: { kind: 'text', text: `${site.url}/alta` } },
          { id: 'n', type: 'fill', target: 'internal:role=textbox[name="NIF"i]', value: { kind: 'column', column: 'NIF' } },
          { id: 'm', type: 'fill', target: 'internal:role=textbox[name="Nombre"i]', value: { kind: 'column', column: 'Nombre' } },
          { id: 'r', type: 'click', target: 'internal:role=button[name="Registrar"i]' },
          { id: 'x', type: 'extractText', target: 'internal:testid=[data-testid="numero-alta"s]', column: 'Número de alta', timeoutMs: 1000 },
        ],
      }],
    });
    const { result, log } = await play(definition, { files: { plantilla: [workbookFile('plantilla.xlsx', [['NIF', 'Nombre'], ...rows])] } });
    expect(result.result).toBe('Success');
    expect(result.usageUnits).toBe(29);
    expect(result.summary).toMatchObject({ Filas: 30, 'Filas correctas': 29, 'Filas con error': 1 });
    const sheet = sheetsOf(result.outputs[0]!.data)['Resultado']!;
    expect(sheet[0]).toEqual(['NIF', 'Nombre', 'Número de alta', 'RESULTADO']);
    expect(sheet[1]).toEqual([rows[0]![0], 'Persona 1', rows[0]![0]!.slice(0, 8), 'OK']);
    expect(sheet[12]).toEqual(['12345678A', 'Persona 12', '', 'El paso 6 (Copiar elemento «numero-alta» a la columna «Número de alta») no ha encontrado el elemento en 1 s']);
    expect(sheet.slice(1).filter((row) => row[3] === 'OK')).toHaveLength(29);
    expect(result.outputs.map((file) => file.name)).toEqual(['resultado.xlsx', 'error-fila-13.png']);
    expect(Buffer.from(result.outputs[1]!.data.subarray(0, 4)).toString('latin1')).toBe('\x89PNG');
    expect(log.progress.at(-1)).toEqual([29, 30]);
    expect(log.lines.some((line) => line.text === 'Fila 2 · Paso 3: Escribir en campo de texto «NIF»')).toBe(true);
  }, 60_000);

  it('a broken locator fails the run naming the step, with its screenshot', async () => {
    const { result } = await play(macro({
      startUrl: `${site.url}/login`,
      steps: [
        { id: 'u', type: 'fill', target: 'internal:role=textbox[name="Usuario"i]', value: { kind: 'text', text: 'gestor' } },
        { id: 'b', type: 'click', target: 'internal:role=button[name="No existe"i]', timeoutMs: 1000 },
        { id: 'e', type: 'extractText', target: 'h1', column: 'Título' },
      ],
    }));
    expect(result.result).toBe('Fail');
    expect(result.message).toBe('El paso 2 (Hacer clic en botón «No existe») no ha encontrado el elemento en 1 s');
    expect(result.outputs.map((file) => file.name)).toEqual(['resultado.xlsx', 'error-paso-2.png']);
    expect(result.usageUnits).toBe(0);
  }, 60_000);

  it('never opens a local file: a row whose address is file:// fails that row and copies nothing of the disk', async () => {
    const definition = macro({
      startUrl: `${site.url}/`,
      charge: { per: 'row', slans: 1 },
      inputs: [{ key: 'hoja', label: 'Hoja', kind: 'workbook', required: true }],
      steps: [{
        id: 'loop', type: 'forEachRow', input: 'hoja', steps: [
          { id: 'g', type: 'goto', url: { kind: 'column', column: 'Dirección' } },
          { id: 'x', type: 'extractText', target: 'body', column: 'Texto', timeoutMs: 1000 },
        ],
      }],
    });
    const { result } = await play(definition, { files: { hoja: [workbookFile('hoja.xlsx', [['Dirección'], ['file:///etc/passwd'], [`${site.url}/login`]])] } });
    const sheet = sheetsOf(result.outputs[0]!.data)['Resultado']!;
    expect(sheet[1]).toEqual(['file:///etc/passwd', '', 'El paso 2 (Ir a una dirección (la columna «Dirección»)) ha fallado: solo puede ir a direcciones https:// o http://, no a «file:///etc/passwd»']);
    expect(sheet[2]?.[2]).toBe('OK');
    expect(JSON.stringify(sheet)).not.toContain('root:');
  }, 60_000);

  it('types a recorded password from this machine; without it the step says where it lives', async () => {
    const definition = macro({
      startUrl: `${site.url}/login`,
      steps: [
        { id: 'u', type: 'fill', target: 'internal:role=textbox[name="Usuario"i]', value: { kind: 'text', text: 'gestor' } },
        { id: 'p', type: 'fill', target: 'internal:role=textbox[name="Contraseña"i]', value: { kind: 'secret', ref: 'sec_prueba123' } },
        { id: 'b', type: 'click', target: 'internal:role=button[name="Entrar"i]' },
        { id: 'e', type: 'extractText', target: 'internal:testid=[data-testid="bienvenida"s]', column: 'Saludo', timeoutMs: 2000 },
      ],
    });
    const here = await play(definition, {}, { reveal: async (ref) => (ref === 'sec_prueba123' ? MACRO_SITE_PASSWORD : null) });
    expect(here.result.result).toBe('Success');
    expect(sheetsOf(here.result.outputs[0]!.data)['Resultado']).toEqual([['Saludo'], ['Hola, gestor']]);
    const elsewhere = await play(definition);
    expect(elsewhere.result.result).toBe('Fail');
    expect(elsewhere.result.message).toBe(`El paso 2 (Escribir en campo de texto «Contraseña») ha fallado: ${SECRET_MISSING_MESSAGE}`);
  }, 60_000);

  it('stops between steps when the run is stopped', async () => {
    const stop = new AbortController();
    const run = browserContext(browser, { signal: stop.signal });
    const original = run.context.log;
    run.context.log = (level, text) => {
      original(level, text);
      if (text.startsWith('Paso 2')) stop.abort();
    };
    run.context.inputs = { [MACRO_DEFINITION_INPUT]: macro({
      startUrl: `${site.url}/login`,
      steps: [
        { id: 'a', type: 'fill', target: 'internal:role=textbox[name="Usuario"i]', value: { kind: 'text', text: 'a' } },
        { id: 'b', type: 'fill', target: 'internal:role=textbox[name="Usuario"i]', value: { kind: 'text', text: 'b' } },
        { id: 'c', type: 'fill', target: 'internal:role=textbox[name="Usuario"i]', value: { kind: 'text', text: 'c' } },
      ],
    }) };
    const result = await playMacroRun(run.context, noSecrets).finally(() => run.close());
    expect(result).toMatchObject({ result: 'Fail', message: STOPPED_MESSAGE, usageUnits: 0 });
    expect(run.log.lines.some((line) => line.text.startsWith('Paso 3'))).toBe(false);
  }, 60_000);

  it('a definition that does not parse fails with its problems, before any browser', async () => {
    const run = browserContext(browser, { inputs: { [MACRO_DEFINITION_INPUT]: { ...macro({ startUrl: 'ftp://x', steps: [] }) } } });
    const result = await playMacroRun(run.context, noSecrets);
    expect(result.result).toBe('Fail');
    expect(result.message).toMatch(/^La definición del robot no es válida: /);
    expect(result.message).toContain('https://');
  });
});
