import { describe, expect, it } from 'vitest';
import {
  a3RunOutcome, byCompany, byName, chainSteps, companyLabel, errorSource, fieldErrors, fieldOptions, formatRowDate, launchableMachines, launcherHref, pagedFields,
  readServerFailure, redRunOutcome, rowFacts, splitSubmissions, toggledAll, withValue,
} from './altasModel.ts';
import type { Output } from '#shared/api/flows.ts';
import type { Machine } from '#shared/api/machines.ts';
import { company, definition, registered, submission } from './test/renderAltas.tsx';

describe('altasModel', () => {
  it('shows row dates as dd/mm/yy hh:mm on the Madrid clock, summer and winter', () => {
    expect(formatRowDate('2026-11-19T08:05:00.000Z')).toBe('19/11/26 09:05');
    expect(formatRowDate('2026-07-31T22:30:00.000Z')).toBe('01/08/26 00:30');
    expect(formatRowDate('no es fecha')).toBe('');
  });

  it('keeps a registration pending until Sistema RED has it, and hides removed ones', () => {
    const items = [submission(), registered(), submission({ _id: 'gone', removed: true })];
    const { pending, history } = splitSubmissions(items);
    expect(pending.map((item) => item._id)).toEqual(['s1']);
    expect(history.map((item) => item._id)).toEqual(['s9']);
  });

  it('searches names without case or accents, and filters by company', () => {
    const items = [submission(), submission({ _id: 's2', title: 'Óscar Gil - Otra S.L.', company: { _id: 'c2', name: 'Otra S.L.' } })];
    expect(byName(items, 'oscar').map((item) => item._id)).toEqual(['s2']);
    expect(byName(items, '  LUCÍA ').map((item) => item._id)).toEqual(['s1']);
    expect(byCompany(items, 'c2').map((item) => item._id)).toEqual(['s2']);
    expect(byCompany(items, '')).toHaveLength(2);
  });

  it('labels a company with its name and CCCs', () => {
    expect(companyLabel(company())).toBe('Hostelería Levante S.L. · 46123456752');
    expect(companyLabel(company({}, { CCC: [] }))).toBe('Hostelería Levante S.L.');
  });

  it('words each step of the chain as it stands, with its time when done (issue 44, 5)', () => {
    expect(chainSteps(registered()).map((step) => [step.label, step.at])).toEqual([
      ['Recibida', '2026-11-17T08:00:00.000Z'], ['Registrada en RED', '2026-11-18T10:00:00.000Z'], ['Pendiente de A3', null], ['Empresa avisada', '2026-11-18T10:01:00.000Z'],
    ]);
    expect(chainSteps(submission()).map((step) => step.label)).toEqual(['Recibida', 'Pendiente de RED', 'Pendiente de A3', 'Empresa sin avisar']);
    const redRefused = submission({ lastError: '#DIL 3012', lastErrorAt: '2026-11-20T09:00:00.000Z' });
    expect(errorSource(redRefused)).toBe('red');
    expect(chainSteps(redRefused).map((step) => [step.label, step.refused])).toEqual([['Recibida', false], ['Rechazada por RED', true], ['Pendiente de A3', false], ['Empresa sin avisar', false]]);
    const a3Refused = registered({ lastError: 'A3 no reconoce el CCC' });
    expect(errorSource(a3Refused)).toBe('a3');
    expect(chainSteps(a3Refused)[2]).toMatchObject({ label: 'Rechazada por A3', refused: true });
    expect(chainSteps(submission({ afiFile: 'ALTAS.AFI' }))[1]?.label).toBe('Remesa AFI pendiente de enviar');
  });

  it("reads a row's NIF and fecha de alta as dd/mm/yyyy, empty when missing", () => {
    expect(rowFacts(submission())).toEqual({ nif: '12345678Z', fechaAlta: '20/11/2026' });
    expect(rowFacts(submission({ fieldsValues: {} }))).toEqual({ nif: '', fechaAlta: '' });
  });

  it('selects all shown rows, or clears them when all were selected, keeping other lists’ choices', () => {
    const once = toggledAll(new Set(['other']), ['a', 'b']);
    expect([...once].sort()).toEqual(['a', 'b', 'other']);
    expect([...toggledAll(once, ['a', 'b'])]).toEqual(['other']);
  });

  it('reads per-field messages of a 400 from issues and details', () => {
    const error = {
      status: 400,
      data: { statusCode: 400, code: 'VALIDATION', message: 'Revisa los campos', issues: [{ path: 'fieldsValues.NIF', message: 'Introduce un NIF o NIE válido' }], details: { fields: { NAF: 'El NAF debe tener 12 dígitos numéricos' } } },
    };
    expect(readServerFailure(error)).toEqual({
      status: 400, message: 'Revisa los campos', fields: { NIF: 'Introduce un NIF o NIE válido', NAF: 'El NAF debe tener 12 dígitos numéricos' },
    });
    expect(readServerFailure({ status: 0, message: 'offline' })).toEqual({ status: 0, message: null, fields: {} });
  });

  it('offers dependent options after their parent, and the company’s CCCs', () => {
    const contract = definition.fields['Tipo Contrato*']!;
    expect(fieldOptions(contract, {}, undefined)).toEqual([]);
    expect(fieldOptions(contract, { Jornada: 'parcial' }, undefined).map((option) => option.key)).toEqual(['200']);
    expect(fieldOptions(definition.fields.CCC!, {}, company())).toEqual([{ key: '46123456752', text: 'Valencia (46123456752)' }]);
  });

  it('clears a dependent choice its parent no longer offers', () => {
    const values = withValue(definition.fields, { Jornada: 'completa', 'Tipo Contrato*': '100' }, 'Jornada', 'parcial');
    expect(values).toEqual({ Jornada: 'parcial', 'Tipo Contrato*': '' });
  });

  it('checks required fields and formats, not files', () => {
    const keys = definition.fieldsOrder;
    const errors = fieldErrors(definition.fields, keys, { NIF: '123', 'Fecha Alta': '2026-02-31' });
    expect(errors.nombre).toBe('Este campo es obligatorio');
    expect(errors.NIF).toBe('Introduce un NIF o NIE válido');
    expect(errors['Fecha Alta']).toBe('Introduce una fecha válida');
    expect(errors['Foto DNI']).toBeUndefined();
  });

  it('puts fields no page names under Otros datos', () => {
    const pages = pagedFields(['a', 'b'], { a: definition.fields.nombre!, b: definition.fields.NIF! }, [{ title: 'Uno', fields: ['a', 'ghost'] }]);
    expect(pages).toEqual([{ title: 'Uno', keys: ['a'] }, { title: 'Otros datos', keys: ['b'] }]);
  });

  it("words the runs' results from their summary: counts, the AFI file, the first error, and where the run is", () => {
    const run = (summary: Output['data']['summary'], message?: string): Output => ({
      status: 200, executionToken: 't', consoleLog: [], data: { runId: 'r', files: [], usageUnits: 1, usageRatio: 1, cost: 1, ...(summary && { summary }), ...(message && { message }) },
    });
    expect(redRunOutcome(run({ registradas: 1, errores: 1, 'primer error': '#DIL 1234 NAF no válido' }))).toEqual({
      failedOnly: false, lines: ['1 registrada, 1 con error.', 'Primer error: #DIL 1234 NAF no válido', 'Lo tienes en el historial de ejecuciones.'],
    });
    expect(redRunOutcome(run({ registradas: 0, errores: 0, 'fichero AFI': 'ALTAS.AFI' })).lines[0]).toBe('Remesa AFI preparada para SILTRA: ALTAS.AFI');
    expect(redRunOutcome(run(undefined, 'RED ha rechazado el certificado'))).toEqual({ failedOnly: true, lines: ['RED ha rechazado el certificado', 'Lo tienes en el historial de ejecuciones.'] });
    expect(a3RunOutcome(run({ sincronizadas: 0, errores: 1, 'primer error': 'CCC desconocido' }))).toEqual({
      failedOnly: true, lines: ['0 sincronizadas con A3, 1 con error.', 'Primer error: CCC desconocido', 'Lo tienes en el historial de ejecuciones.'],
    });
  });

  it('offers the web user the linked machines, each leading to the launcher with it chosen', () => {
    const machines = [{ _id: 'm1', linked: true }, { _id: 'm2', linked: false }] as Machine[];
    expect(launchableMachines(machines).map((machine) => machine._id)).toEqual(['m1']);
    expect(launcherHref('altas-automaticas-red', '11111111-1111-4111-8111-111111111111')).toBe('/launcher/altas-automaticas-red?machine=11111111-1111-4111-8111-111111111111');
  });
});
