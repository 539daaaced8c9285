import { describe, expect, it } from 'vitest';
import { flowDefinitionSchema, type MappedColumn } from '#shared/flows/definition.ts';
import { resolveColumns } from '../../../resources/flows/_lib/columns.ts';
import validarDefinition from '../../../resources/flows/validar-identificadores/flow.json' with { type: 'json' };
import altasDefinition from '../../../resources/flows/comprobar-altas-red/flow.json' with { type: 'json' };
import { guessColumns } from './launcherModel.ts';

const mappedColumns = (definition: unknown): MappedColumn[] =>
  flowDefinitionSchema.parse(definition).sectionSetup.builder.flatMap((section) => section.builder).flatMap((input) => input.config?.columns ?? []);

/** What the robot works on when the user leaves the mapping as it is: key -> header, null when not found. */
function robotChoice(headers: readonly string[], columns: readonly MappedColumn[]): Record<string, string | null> {
  const { found } = resolveColumns(headers, columns, undefined);
  return Object.fromEntries(columns.map((column) => [column.key, found.find((f) => f.column.key === column.key)?.header ?? null]));
}

describe("the launcher's preselection is the robot's detection", () => {
  const header = ['Código', 'Apellidos y nombre', 'D.N.I. / N.I.E.', 'N.º Afiliación S.S.', 'Código cuenta cotización', 'Cuenta', 'F. Nac.', 'Tipo de documento'];

  it.each([['validar-identificadores', validarDefinition], ['comprobar-altas-red', altasDefinition]] as const)('%s: same header row, same columns', (_id, definition) => {
    const columns = mappedColumns(definition);
    const preselected = guessColumns(columns, header);
    expect(preselected).toEqual(robotChoice(header, columns));
    // and a mapping sent exactly as preselected runs on the same columns
    expect(resolveColumns(header, columns, preselected).found.map((f) => f.header)).toEqual(
      resolveColumns(header, columns, undefined).found.map((f) => f.header),
    );
  });

  it('finds the columns the issue saw as "Sin asignar"', () => {
    expect(guessColumns(mappedColumns(validarDefinition), header)).toEqual({
      nif: 'D.N.I. / N.I.E.', naf: 'N.º Afiliación S.S.', iban: 'Cuenta', ccc: 'Código cuenta cotización',
    });
  });
});
