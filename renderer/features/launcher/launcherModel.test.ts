import { describe, expect, it } from 'vitest';
import { flowDefinitionProblems, flowDefinitionSchema } from '#shared/flows/definition.ts';
import { checkField, possibleMessages } from '../../ui/forms.ts';
import type { Machine } from '#shared/api/machines.ts';
import type { FlowInputDefinition } from '#shared/flows/definition.ts';
import {
  certificateProblem, certificateWarning, chosenCertificate, connectionOf, defaultFormValue, deviceOptions, deviceSection, estimateCost, guessColumns, nextSection, previousSection,
  requestInputs, resetSection, ruleFor, selectedPaths, startSection, transitionFor, unitMeasure,
} from './launcherModel.ts';
import { emailResultFlow, formFlow, workbookFlow } from './test/flowFixture.ts';

const chosen = { fingerprint: 'ab'.repeat(32), commonName: 'GARCIA LOPEZ ANA - 12345678Z', nifVat: '12345678Z', machineId: 'm-1', machineName: 'PC Recepción' };

describe('the fixtures are flows the server would accept', () => {
  it('parse with the shared schema and have no cross-field problems', () => {
    for (const flow of [workbookFlow(), formFlow(), emailResultFlow()]) {
      expect(flowDefinitionProblems(flowDefinitionSchema.parse(flow))).toEqual([]);
    }
  });
});

describe('where the wizard goes (spec §4)', () => {
  it('skips a tutorial that comes first', () => {
    expect(startSection(workbookFlow())?.ref).toBe('datos');
  });

  it('starts at the first visible section otherwise, skipping hidden ones', () => {
    const flow = formFlow();
    flow.sectionSetup.builder.unshift({ ref: 'oculta', template: 'InputComponents', title: 'Oculta', hidden: true, builder: [] });
    expect(startSection(flow)?.ref).toBe('persona');
  });

  it('keeps a tutorial that is the only section', () => {
    const flow = workbookFlow();
    flow.sectionSetup.builder = [flow.sectionSetup.builder[0]!];
    expect(startSection(flow)?.ref).toBe('intro');
  });

  it('Next goes to the following visible section; Back to the previous, none from the start', () => {
    const flow = formFlow();
    expect(nextSection(flow, 'persona')?.ref).toBe('contrato');
    expect(nextSection(flow, 'contrato')).toBeUndefined();
    expect(previousSection(flow, 'contrato')?.ref).toBe('persona');
    expect(previousSection(flow, 'persona')).toBeUndefined();
  });

  it('Back from the start after a skipped tutorial leaves the page rather than showing the tutorial', () => {
    expect(previousSection(workbookFlow(), 'datos')).toBeUndefined();
  });

  it("a section's backTo overrides Back", () => {
    const flow = formFlow();
    flow.sectionSetup.builder[1] = { ...flow.sectionSetup.builder[1]!, backTo: 'hecho' };
    expect(previousSection(flow, 'contrato')?.ref).toBe('hecho');
  });

  it('Repeat returns to resetTo, or to the start', () => {
    expect(resetSection(workbookFlow())?.ref).toBe('datos');
    const flow = formFlow();
    flow.sectionSetup.resetTo = 'contrato';
    expect(resetSection(flow)?.ref).toBe('contrato');
  });
});

describe('transition by launch status, in the spec order', () => {
  const flow = workbookFlow();
  const from = flow.sectionSetup.builder[1]!;

  it('a router mapping for the status wins', () => {
    const routed = { ...from, router: { '200': 'intro', '242': 'datos' } };
    expect(transitionFor(flow, routed, 200)).toEqual({ kind: 'section', ref: 'intro' });
    expect(transitionFor(flow, routed, 242)).toEqual({ kind: 'section', ref: 'datos', errorKind: 'result' });
  });

  it('200 goes to the output section', () => {
    expect(transitionFor(flow, from, 200)).toEqual({ kind: 'section', ref: 'result' });
  });

  it('242 goes to the error section with type result', () => {
    expect(transitionFor(flow, from, 242)).toEqual({ kind: 'section', ref: 'failed', errorKind: 'result' });
  });

  it.each([400, 401, 500])('%i goes to the error section', (status) => {
    expect(transitionFor(flow, from, status)).toEqual({ kind: 'section', ref: 'failed', errorKind: 'default' });
  });

  it('402 shows the credits prompt', () => {
    expect(transitionFor(flow, from, 402)).toEqual({ kind: 'creditsPrompt' });
  });

  it('a router mapping for 402 wins over the prompt', () => {
    expect(transitionFor(flow, { ...from, router: { '402': 'intro' } }, 402)).toEqual({ kind: 'section', ref: 'intro', errorKind: 'default' });
  });

  it('504 goes to the error section with type timeout', () => {
    expect(transitionFor(flow, from, 504)).toEqual({ kind: 'section', ref: 'failed', errorKind: 'timeout' });
  });

  it.each([202, 299, 0, 418])('any other status (%i) goes to the error section', (status) => {
    expect(transitionFor(flow, from, status)).toEqual({ kind: 'section', ref: 'failed', errorKind: 'default' });
  });

  it('a router pointing at a section that does not exist is ignored', () => {
    expect(transitionFor(flow, { ...from, router: { '200': 'nowhere' } }, 200)).toEqual({ kind: 'section', ref: 'result' });
  });

  it('without an output or error section there is nothing to show: the fallback', () => {
    const bare = workbookFlow();
    bare.sectionSetup.builder = bare.sectionSetup.builder.slice(0, 2);
    expect(transitionFor(bare, from, 200)).toEqual({ kind: 'fallback' });
    expect(transitionFor(bare, from, 500)).toEqual({ kind: 'fallback' });
  });
});

describe('inputs', () => {
  it('checks text by its validator, numbers and dates by type, the rest for presence; hidden and desktop inputs not at all', () => {
    const [persona, contrato] = formFlow().sectionSetup.builder;
    const byKey = Object.fromEntries([...persona!.builder, ...contrato!.builder].map((input) => [input.key, ruleFor(input)]));
    expect(byKey['nif']).toEqual({ required: true, formatRequired: true, rule: 'nienif' });
    expect(byKey['horas']).toEqual({ required: false, formatRequired: true, rule: 'number' });
    expect(byKey['inicio']).toEqual({ required: true, formatRequired: true, rule: 'date' });
    expect(byKey['tipo']).toEqual({ required: true });
    expect(byKey['certificado']).toEqual({ required: false, requiredMessage: 'Necesitas seleccionar un certificado para continuar.', check: expect.any(Function) });
    expect(byKey['origen']).toEqual({});
    expect(ruleFor({ key: 'carpeta', template: 'SelectionDialog', label: 'Carpeta', required: true })).toEqual({});
    expect(ruleFor({ key: 'local', template: 'Certificate', label: 'Certificado', required: true, config: { embedded: true } })).toEqual({});
  });

  it('in the desktop app, desktop-only inputs are checked like the others: a required pick, a required certificate of this PC', () => {
    expect(ruleFor({ key: 'carpeta', template: 'SelectionDialog', label: 'Carpeta', required: true }, true)).toEqual({ required: true });
    expect(ruleFor({ key: 'carpeta', template: 'SelectionDialog', label: 'Carpeta' }, true)).toEqual({ required: false });
    expect(ruleFor({ key: 'local', template: 'Certificate', label: 'Certificado', required: true, config: { embedded: true } }, true))
      .toEqual({ required: true, requiredMessage: 'Necesitas seleccionar un certificado para continuar.', check: expect.any(Function) });
    expect(ruleFor({ key: 'oculta', template: 'SelectionDialog', label: 'Oculta', required: true, hidden: true }, true)).toEqual({});
  });

  it('a SelectionDialog input holds the dialog’s paths; only the desktop app sends them (string[]), and none when empty', () => {
    const flow = formFlow();
    flow.sectionSetup.builder[1]?.builder.push(
      { key: 'carpeta', template: 'SelectionDialog', label: 'Carpeta de destino', config: { directory: true } },
      { key: 'local', template: 'Certificate', label: 'Certificado de este equipo', config: { embedded: true } },
    );
    const paths = ['C:\\Users\\ana\\Justificantes', '/home/ana/justificantes 2025'];
    const values = { nif: '12345678Z', inicio: '2025-03-01', tipo: '100', acepto: 'true', carpeta: JSON.stringify(paths), local: JSON.stringify({ ...chosen, machineId: undefined }) };
    expect(requestInputs(flow, values, true)).toMatchObject({ carpeta: paths, local: chosen.fingerprint });
    expect(requestInputs(flow, values)).not.toHaveProperty('carpeta');
    expect(requestInputs(flow, values)).not.toHaveProperty('local');
    expect(requestInputs(flow, { ...values, carpeta: '' }, true)).not.toHaveProperty('carpeta');
    expect(selectedPaths(JSON.stringify(paths))).toEqual(paths);
    expect(selectedPaths('["/a", 3, ""]')).toEqual(['/a']);
    expect(selectedPaths('no es json')).toEqual([]);
    expect(defaultFormValue({ key: 'c', template: 'SelectionDialog', label: 'C', value: '/home/ana' })).toBe('["/home/ana"]');
    expect(defaultFormValue({ key: 'c', template: 'SelectionDialog', label: 'C', value: ['/a', '/b'] })).toBe('["/a","/b"]');
    expect(defaultFormValue({ key: 'c', template: 'SelectionDialog', label: 'C' })).toBe('');
  });

  it("a required certificate says 'Necesitas seleccionar un certificado para continuar.', not the generic message", () => {
    const rule = ruleFor({ key: 'c', template: 'Certificate', label: 'Certificado', required: true });
    expect(checkField('', rule)).toBe('Necesitas seleccionar un certificado para continuar.');
    expect(possibleMessages(rule)).toEqual(['Necesitas seleccionar un certificado para continuar.']);
    expect(checkField(JSON.stringify(chosen), rule)).toBeUndefined();
  });

  it('a Certificate input holds the chosen certificate; the request carries its fingerprint only', () => {
    const flow = formFlow();
    const withCertificate = { nif: '12345678Z', inicio: '2025-03-01', tipo: '100', acepto: 'true', certificado: JSON.stringify(chosen) };
    expect(requestInputs(flow, withCertificate)).toMatchObject({ certificado: chosen.fingerprint });
    expect(requestInputs(flow, { ...withCertificate, certificado: '' })).not.toHaveProperty('certificado');
    expect(chosenCertificate(JSON.stringify(chosen))).toEqual(chosen);
    // Text that is not a chosen certificate (an old or hand-made value) is no certificate, and nothing is sent.
    expect(chosenCertificate('{"fingerprint":"abc"}')).toBeNull();
    expect(chosenCertificate('not json')).toBeNull();
    expect(requestInputs(flow, { ...withCertificate, certificado: '{"fingerprint":"abc"}' })).not.toHaveProperty('certificado');
    expect(defaultFormValue({ key: 'c', template: 'Certificate', label: 'C', value: chosen.fingerprint })).toBe('');
  });

  it('a Dropdown without choices is a text field', () => {
    expect(ruleFor({ key: 'x', template: 'Dropdown', label: 'X', validate: 'email' })).toMatchObject({ rule: 'email' });
  });

  it('turns the form text into the request inputs: numbers, ISO dates, booleans, uploads; hidden with their default; desktop ones left out', () => {
    const flow = formFlow();
    const inputs = requestInputs(flow, { nif: ' 12345678Z ', nombre: '', inicio: '2025-03-01', horas: '37,5', tipo: '100', acepto: 'true' });
    expect(inputs).toEqual({ nif: '12345678Z', inicio: '2025-03-01', horas: 37.5, tipo: '100', acepto: true, origen: 'launcher' });
    const upload = [{ uploadId: '1b4e28ba-2fa1-11d2-883f-0016d3cca427', name: 'plantilla.xlsx' }];
    expect(requestInputs(workbookFlow(), { workbook: JSON.stringify(upload), columns: JSON.stringify({ nif: 'DNI', naf: null }) }))
      .toEqual({ workbook: upload, columns: { nif: 'DNI', naf: null } });
  });

  it('defaults: a ticked checkbox, a date as ISO', () => {
    expect(defaultFormValue({ key: 'c', template: 'Checkbox', label: 'C', value: 'true' })).toBe('true');
    expect(defaultFormValue({ key: 'd', template: 'Date', label: 'D', value: '31/05/2025' })).toBe('2025-05-31');
  });

  it('guesses each mapped column from header hints, accents and case ignored, one header per column', () => {
    const columns = workbookFlow().sectionSetup.builder[1]!.builder[1]!.config!.columns!;
    expect(guessColumns(columns, ['Nombre', 'D.N.I.', 'Nº Seguridad Social', 'Importe'])).toEqual({ nif: 'D.N.I.', naf: 'Nº Seguridad Social' });
    expect(guessColumns(columns, ['Tipo de documento', 'Documento', 'NAF'])).toEqual({ nif: 'Documento', naf: 'NAF' });
    expect(guessColumns(columns, ['NIF trabajador', 'NAF'])).toEqual({ nif: 'NIF trabajador', naf: 'NAF' });
    expect(guessColumns(columns, ['Número de afiliación (NAF)', 'DNI/NIE'])).toEqual({ nif: 'DNI/NIE', naf: 'Número de afiliación (NAF)' });
  });
});

describe('cost before launch (cost = units × usageRatio)', () => {
  it('reads the unit: rows in blocks, single rows, or something the robot counts', () => {
    expect(unitMeasure('100 filas')).toEqual({ rowsPerUnit: 100, singular: '100 filas', plural: '100 filas' });
    expect(unitMeasure('fila|filas')).toEqual({ rowsPerUnit: 1, singular: 'fila', plural: 'filas' });
    expect(unitMeasure('bloque de 100 filas|bloques de 100 filas').rowsPerUnit).toBe(100);
    expect(unitMeasure('1.000 filas').rowsPerUnit).toBe(1000);
    expect(unitMeasure('entrada|entradas').rowsPerUnit).toBeNull();
  });

  it('a flow billed per 100 rows costs ceil(rows / 100) × ratio', () => {
    expect(estimateCost({ usageRatio: 1, usageMeasureUnit: '100 filas' }, 250)).toEqual({ cost: 3, units: 3, lowerBound: false });
    expect(estimateCost({ usageRatio: 1, usageMeasureUnit: '100 filas' }, 200)).toEqual({ cost: 2, units: 2, lowerBound: false });
    expect(estimateCost({ usageRatio: 0.5, usageMeasureUnit: 'fila|filas' }, 7)).toEqual({ cost: 3.5, units: 7, lowerBound: false });
  });

  it('is unknown until the workbook is uploaded, and one unit at least for units the robot counts', () => {
    expect(estimateCost({ usageRatio: 1, usageMeasureUnit: '100 filas' }, null)).toBeNull();
    expect(estimateCost({ usageRatio: 2, usageMeasureUnit: 'entrada|entradas' }, null)).toEqual({ cost: 2, units: 1, lowerBound: true });
  });
});

describe('where a desktop flow runs (spec §6)', () => {
  const machine = (id: string, hash: string, state: Pick<Machine, 'linked' | 'online'>): Machine => ({
    _id: id, name: `PC-${id}`, savedAs: '', machineHashCode: hash.repeat(64), sync: false, shared: false, mine: true,
    owner: { email: 'ana@asesoria.es', name: 'Ana' }, certificates: [], configs: [], lastSyncAt: null, lastSeenAt: null, createdAt: '2025-01-01T00:00:00Z', ...state,
  });
  const here = machine('m-here', 'a', { linked: true, online: true });
  const office = machine('m-office', 'b', { linked: true, online: false });
  const fresh = machine('m-fresh', 'c', { linked: false, online: false });

  it('reads a machine as connected, quiet since it was linked, or never linked', () => {
    expect([here, office, fresh].map(connectionOf)).toEqual(['online', 'offline', 'unlinked']);
  });

  it('the desktop app offers this PC first and not its own record again; the web app only the machines', () => {
    const inApp = deviceOptions([office, here, fresh], { name: 'Este dispositivo', machineHashCode: 'a'.repeat(64) });
    expect(inApp.map((option) => [option.key, option.name])).toEqual([['this-device', 'Este dispositivo'], ['m-office', 'PC-m-office'], ['m-fresh', 'PC-m-fresh']]);
    expect(inApp[0]?.machine).toBe(here);
    // Before GetMachineHashCode answers, this PC's record shows among the others.
    expect(deviceOptions([here], { name: 'Este dispositivo', machineHashCode: null }).map((option) => option.key)).toEqual(['this-device', 'm-here']);
    expect(deviceOptions([office, here], null).map((option) => option.key)).toEqual(['m-office', 'm-here']);
  });

  it('asks for the device on the first step filled in, and only for desktop flows', () => {
    expect(deviceSection(formFlow({ runsOn: 'desktop' }))?.ref).toBe('persona');
    expect(deviceSection(workbookFlow({ runsOn: 'desktop' }))?.ref).toBe('datos');
    expect(deviceSection(formFlow())).toBeUndefined();
  });
});

describe('what the wizard refuses before a run is queued (issue 21)', () => {
  // Descargar justificantes' inputs as its flow.json has them (the API test launches the real one).
  const inputs: FlowInputDefinition[] = [
    { key: 'certificado', template: 'Certificate', label: 'Certificado', required: true },
    { key: 'desde', template: 'Date', label: 'Desde', required: true },
    { key: 'hasta', template: 'Date', label: 'Hasta', required: true, config: { notBefore: 'desde' } },
    { key: 'nif', template: 'Text', label: 'NIF del titular', validate: 'nienifcif', required: false },
  ];
  const rule = (key: string) => ruleFor(inputs.find((input) => input.key === key) ?? inputs[0]!, false, inputs, () => new Date('2026-11-26T10:00:00Z'));
  const check = (key: string, values: Record<string, string>) => {
    const fieldRule = rule(key);
    return fieldRule.check?.(values[key] ?? '', values) ?? checkField(values[key] ?? '', fieldRule);
  };

  it('refuses Hasta before Desde in Spanish, and takes a one-day period; a NIF of 4 digits is no NIF, NIE or CIF', () => {
    expect(check('hasta', { desde: '2026-03-31', hasta: '2026-03-01' })).toBe('«Hasta» no puede ser anterior a «Desde»');
    expect(check('hasta', { desde: '2026-03-01', hasta: '2026-03-01' })).toBeUndefined();
    expect(check('hasta', { desde: '', hasta: '2026-03-01' })).toBeUndefined();
    expect(check('hasta', { desde: '2026-03-01', hasta: '' })).toBe('Este campo es obligatorio');
    expect(check('nif', { nif: '1234' })).toBe('Introduce un NIF, NIE o CIF válido');
    expect(check('nif', { nif: '' })).toBeUndefined();
    for (const nif of ['12345678Z', 'X1234567L', 'B12345674']) expect(check('nif', { nif })).toBeUndefined();
  });

  it('refuses an expired certificate with the reason and the date, and warns in words of one within 30 days', () => {
    const now = new Date('2026-11-26T10:00:00Z');
    const certificate = (notAfter: string) => JSON.stringify({ ...chosen, notAfter });
    expect(check('certificado', { certificado: certificate('2026-11-01T00:00:00Z') }))
      .toBe('El certificado «GARCIA LOPEZ ANA - 12345678Z» caducó el 01/11/2026: el portal lo rechazará. Elige uno vigente o renuévalo.');
    expect(check('certificado', { certificado: certificate('2027-11-01T00:00:00Z') })).toBeUndefined();
    expect(check('certificado', { certificado: '' })).toBe('Necesitas seleccionar un certificado para continuar.');
    // A choice kept from before expiry dates were sent (no notAfter) is left to the server and the robot.
    expect(check('certificado', { certificado: JSON.stringify(chosen) })).toBeUndefined();

    expect(certificateWarning(chosenCertificate(certificate('2026-12-16T12:00:00Z')), now)).toBe('Atención: este certificado caduca en 20 días (16/12/2026). Renuévalo antes de que deje de servir.');
    expect(certificateWarning(chosenCertificate(certificate('2026-11-27T12:00:00Z')), now)).toMatch(/caduca mañana/);
    expect(certificateWarning(chosenCertificate(certificate('2027-02-01T00:00:00Z')), now)).toBeUndefined();
    expect(certificateWarning(chosenCertificate(certificate('2026-11-01T00:00:00Z')), now)).toBeUndefined();
    expect(certificateProblem(chosenCertificate(certificate('2026-11-01T00:00:00Z')), now)).toMatch(/caducó el 01\/11\/2026/);
  });
});

describe("'Enviar resultado por email' (template EmailResult)", () => {
  const input: FlowInputDefinition = { key: 'emailResult', template: 'EmailResult', label: 'Enviar resultado por email' };
  const on = (configId: string, recipients: string[]) => JSON.stringify({ configId, recipients, draft: '' });

  it('starts off and is fine off; on, it needs a configuration and recipients', () => {
    expect(defaultFormValue(input)).toBe('');
    const { check } = ruleFor(input);
    expect(check?.('', {})).toBeUndefined();
    expect(check?.(on('', ['ana@a.es']), {})).toBe('Elige la configuración de correo con la que se envía');
    expect(check?.(on('cfg-1', []), {})).toBe('Indica al menos un destinatario');
    expect(check?.(on('cfg-1', ['ana@a.es']), {})).toBeUndefined();
  });

  it('goes into the request (and a schedule) as null when off and as { configId, recipients } when on', () => {
    const flow = emailResultFlow();
    expect(requestInputs(flow, { emailResult: '' })).toMatchObject({ emailResult: null });
    expect(requestInputs(flow, { emailResult: on('cfg-1', ['ana@a.es']) })).toMatchObject({ emailResult: { configId: 'cfg-1', recipients: ['ana@a.es'] } });
    // A hidden one is sent with the flow's default, as any hidden input.
    const hidden = emailResultFlow({ hidden: true, value: { configId: 'cfg-2', recipients: ['luis@b.es'] } });
    expect(requestInputs(hidden, {})).toMatchObject({ emailResult: { configId: 'cfg-2', recipients: ['luis@b.es'] } });
  });
});
