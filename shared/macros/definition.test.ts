import { describe, expect, it } from 'vitest';
import { MAX_MACRO_STEPS, parseMacro, secretRefsOf, type MacroDefinition, type MacroStep } from './definition.ts';

const click = (id: string): MacroStep => ({ id, type: 'click', target: 'internal:role=button[name="Entrar"i]' });

function macro(overrides: Partial<MacroDefinition> = {}): MacroDefinition {
  return {
    schemaVersion: 1,
    name: 'Alta en el portal',
    description: 'Da de alta a cada trabajador de la hoja',
    startUrl: 'https://portal.example/',
    inputs: [
      { key: 'hoja', label: 'Trabajadores', kind: 'workbook', required: true },
      { key: 'fecha', label: 'Fecha de alta', kind: 'date', required: true },
      { key: 'contrato', label: 'Contrato', kind: 'file', required: false },
      { key: 'certificado', label: 'Certificado', kind: 'certificate', required: true },
    ],
    certificate: { input: 'certificado', origins: ['https://portal.example'] },
    steps: [
      { id: 'login', type: 'fill', target: 'internal:label="Clave"i', value: { kind: 'secret', ref: 'clave-0001' } },
      {
        id: 'filas',
        type: 'forEachRow',
        input: 'hoja',
        steps: [
          { id: 'nif', type: 'fill', target: 'internal:label="NIF"i', value: { kind: 'column', column: 'NIF' } },
          { id: 'alta', type: 'fill', target: 'internal:label="Fecha"i', value: { kind: 'input', key: 'fecha' } },
          { id: 'pdf', type: 'upload', target: 'internal:label="Contrato"i', input: 'contrato' },
          { id: 'ok', type: 'ifText', text: { kind: 'text', text: 'Alta registrada' }, present: true, steps: [{ id: 'num', type: 'extractText', target: '#numero', column: 'Número' }], otherwise: [] },
        ],
      },
    ],
    charge: { per: 'row', slans: 1 },
    outputFileName: 'resultado.xlsx',
    timeLimitSeconds: 600,
    ...overrides,
  };
}

function problems(definition: unknown): string[] {
  const parsed = parseMacro(definition);
  return parsed.ok ? [] : parsed.problems;
}

describe('a macro definition', () => {
  it('accepts a loop over a workbook with columns, inputs, an upload, a condition and a recorded password', () => {
    expect(problems(macro())).toEqual([]);
    expect(secretRefsOf(macro())).toEqual(['clave-0001']);
  });

  it('refuses steps of an unknown type and missing fields, naming where', () => {
    const broken = macro({ steps: [{ id: 'x', type: 'teleport' } as unknown as MacroStep] });
    expect(problems(broken)[0]).toMatch(/^steps\.0/);
    expect(problems({ ...macro(), startUrl: 'javascript:alert(1)' })[0]).toContain('https://');
    expect(problems({ ...macro(), outputFileName: '../../etc/passwd.xlsx' })[0]).toContain('.xlsx');
  });

  it('says in Spanish what the schema cannot: inputs that do not exist or are of the wrong kind', () => {
    const wrong = macro({
      steps: [
        { id: 'a', type: 'fill', target: 'x', value: { kind: 'input', key: 'nada' } },
        { id: 'b', type: 'upload', target: 'x', input: 'fecha' },
        { id: 'c', type: 'forEachRow', input: 'contrato', steps: [] },
      ],
      charge: { per: 'run', slans: 1 },
    });
    expect(problems(wrong)).toEqual([
      'El paso 1 (Escribir) usa el dato «nada», que no existe',
      'El paso 2 (Subir un fichero) necesita un dato de tipo fichero para subir, y «Fecha de alta» es fecha',
      'El paso 3 (Por cada fila de la hoja) necesita un dato de tipo hoja de cálculo (una vuelta por fila), y «Contrato» es fichero para subir',
    ]);
  });

  it('goes only to web addresses: a goto to file:// or javascript: is refused', () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'chrome://settings']) {
      expect(problems(macro({ steps: [{ id: 'a', type: 'goto', url: { kind: 'text', text: url } }], charge: { per: 'run', slans: 1 } }))).toEqual([
        'El paso 1 (Ir a una dirección) debe ir a una dirección que empiece por https:// o http://',
      ]);
    }
  });

  it('allows row columns only inside a loop, one loop level, and a per-row charge only with a loop', () => {
    expect(problems(macro({ steps: [{ id: 'a', type: 'fill', target: 'x', value: { kind: 'column', column: 'NIF' } }] }))).toEqual([
      'El paso 1 (Escribir) usa la columna «NIF» fuera de un «Por cada fila de la hoja»',
      'Para cobrar por fila, el robot necesita un paso «Por cada fila de la hoja»',
    ]);
    const nested = macro({ steps: [{ id: 'a', type: 'forEachRow', input: 'hoja', steps: [{ id: 'b', type: 'forEachRow', input: 'hoja', steps: [] }] }] });
    expect(problems(nested)).toContain('El paso 2 (Por cada fila de la hoja) está dentro de otro «Por cada fila de la hoja»');
  });

  it('refuses repeated ids and keys, a certificate that is not a certificate input, too deep or too long', () => {
    expect(problems(macro({ steps: [click('a'), click('a')], charge: { per: 'run', slans: 1 } }))).toEqual(['El paso 2 (Hacer clic) repite el identificador a']);
    expect(problems(macro({ certificate: { input: 'fecha', origins: ['https://portal.example'] } }))[0]).toContain('El certificado del navegador necesita un dato de tipo certificado');
    const inputs = macro().inputs;
    expect(problems(macro({ inputs: [...inputs, inputs[0] as MacroDefinition['inputs'][number]] }))).toContain('El dato «hoja» está repetido');
    let deep: MacroStep = click('hoja-5');
    for (let level = 4; level >= 1; level -= 1) deep = { id: `r${level}`, type: 'repeatWhile', target: 'internal:text="Siguiente"i', maxTimes: 3, steps: [deep] };
    expect(problems(macro({ steps: [deep], charge: { per: 'run', slans: 0 } }))).toEqual(['El paso 5 (Hacer clic) está dentro de más de 3 bucles o condiciones']);
    const long = Array.from({ length: MAX_MACRO_STEPS + 1 }, (_, index) => click(`s${index}`));
    expect(problems(macro({ steps: long, charge: { per: 'run', slans: 0 } }))).toEqual([`El robot tiene ${MAX_MACRO_STEPS + 1} pasos; como mucho ${MAX_MACRO_STEPS}`]);
  });
});
