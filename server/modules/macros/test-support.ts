import { expect } from 'vitest';
import { macrosPaths, type Macro } from '#shared/api/macros.ts';
import type { MacroDefinition } from '#shared/macros/definition.ts';
import type { Database } from '../../db/schema.ts';
import type { CookieJar } from '../../test/harness.ts';

/** The macros module's test fixtures. */

export const MACRO_TABLES: (keyof Database)[] = ['macros', 'macro_versions', 'flows', 'shares'];

export const macroPath = (template: string, params: Record<string, string | number>) => Object.entries(params).reduce((url, [key, value]) => url.replace(`:${key}`, String(value)), template);

/** A small recorded macro: log in with an input and a password typed while recording, read a figure. */
export function sampleMacro(overrides: Partial<MacroDefinition> = {}): MacroDefinition {
  return {
    schemaVersion: 1,
    name: 'Consulta de saldo',
    description: 'Entra en el portal y copia el saldo',
    startUrl: 'https://portal.example.es/login',
    inputs: [{ key: 'usuario', label: 'Usuario', kind: 'text', required: true }],
    steps: [
      { id: 's1', type: 'fill', target: 'internal:label="Usuario"i', value: { kind: 'input', key: 'usuario' } },
      { id: 's2', type: 'fill', target: 'internal:label="Contraseña"i', value: { kind: 'secret', ref: 'secreto-0001' } },
      { id: 's3', type: 'click', target: 'internal:role=button[name="Entrar"i]' },
      { id: 's4', type: 'extractText', target: '#saldo', column: 'Saldo' },
    ],
    charge: { per: 'run', slans: 2 },
    outputFileName: 'saldo.xlsx',
    timeLimitSeconds: 120,
    ...overrides,
  };
}

/** A macro that loops over a workbook's rows, charged per row. */
export function rowsMacro(): MacroDefinition {
  return sampleMacro({
    name: 'Altas por fila',
    inputs: [{ key: 'empleados', label: 'Empleados', kind: 'workbook', required: true }],
    steps: [
      { id: 'r1', type: 'forEachRow', input: 'empleados', steps: [{ id: 'r2', type: 'fill', target: '#nif', value: { kind: 'column', column: 'NIF' } }, { id: 'r3', type: 'extractText', target: '#estado', column: 'Estado' }] },
    ],
    charge: { per: 'row', slans: 0.5 },
  });
}

export async function createMacro(jar: CookieJar, definition: MacroDefinition = sampleMacro()): Promise<Macro> {
  const response = await jar.post(macrosPaths.macros, { source: 'recording', definition });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Macro>();
}
