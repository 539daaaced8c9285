import { describe, expect, it } from 'vitest';
import { parseMacro } from '#shared/macros/definition.ts';
import type { MacroDefinition, MacroStep } from '#shared/macros/definition.ts';
import { blankMacro, duplicateStep, keyFromLabel, moveStep, placeProblems, removeStep, stepRows, wrapInForEachRow } from './macroModel.ts';

const click = (id: string, name = id): MacroStep => ({ id, type: 'click', target: `internal:role=button[name="${name}"i]` });
const macro = (steps: MacroStep[]): MacroDefinition => ({ ...blankMacro(), name: 'R', startUrl: 'https://a.example', steps });
const nested: MacroStep[] = [
  click('a'),
  { id: 'if', type: 'ifText', text: { kind: 'text', text: 'Error' }, present: true, steps: [click('b'), click('c')], otherwise: [click('d')] },
  click('e'),
];

describe('macroModel', () => {
  it('numbers steps in reading order, inner ones included', () => {
    expect(stepRows(nested).map((row) => [row.step.id, row.number, row.depth])).toEqual([['a', 1, 1], ['if', 2, 1], ['b', 3, 2], ['c', 4, 2], ['d', 5, 2], ['e', 6, 1]]);
  });

  it('moves a step among its siblings only, inside a condition too', () => {
    expect(stepRows(moveStep(nested, 'c', -1)).map((row) => row.step.id)).toEqual(['a', 'if', 'c', 'b', 'd', 'e']);
    expect(moveStep(nested, 'b', -1)).toBe(nested);
    expect(moveStep(nested, 'd', 1)).toBe(nested);
  });

  it('duplicates a container with new ids for it and its steps, and removes inner steps', () => {
    const { steps, copyId } = duplicateStep(nested, 'if');
    const ids = stepRows(steps).map((row) => row.step.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toHaveLength(10);
    expect(steps[2]?.id).toBe(copyId);
    expect(stepRows(removeStep(nested, 'd')).map((row) => row.step.id)).toEqual(['a', 'if', 'b', 'c', 'e']);
  });

  it('wraps sibling steps in a loop over a new workbook input, and refuses steps at different levels', () => {
    const result = wrapInForEachRow(macro(nested), ['a', 'e'], 'Hoja de cálculo');
    if (!result.ok) throw new Error(result.reason);
    expect(result.macro.steps.map((step) => step.id)).toEqual([result.loopId, 'if']);
    expect(result.macro.steps[0]).toMatchObject({ type: 'forEachRow', input: 'hoja_de_calculo', steps: [{ id: 'a' }, { id: 'e' }] });
    expect(parseMacro(result.macro).ok).toBe(true);
    expect(wrapInForEachRow(macro(nested), ['a', 'b'], 'Hoja')).toEqual({ ok: false, reason: 'Los pasos marcados deben estar al mismo nivel (no unos dentro de otros).' });
  });

  it('makes input keys from labels, unique', () => {
    expect(keyFromLabel('Fecha de alta', [])).toBe('fecha_de_alta');
    expect(keyFromLabel('Año', ['ano'])).toBe('ano_2');
    expect(keyFromLabel('123', [])).toBe('dato');
  });

  it('ties the schema\'s and macroProblems\' problems to their steps', () => {
    const broken = macro([click('a'), { id: 'if', type: 'ifText', text: { kind: 'column', column: 'NIF' }, present: true, steps: [{ id: 'x', type: 'click', target: '' }], otherwise: [] }]);
    const parsed = parseMacro(broken);
    if (parsed.ok) throw new Error('expected problems');
    const placed = placeProblems(broken, parsed.problems);
    expect(placed).toEqual([{ message: 'Paso 3: Indica el elemento de la página', detail: 'Indica el elemento de la página', stepId: 'x', stepNumber: 3 }]);
    const fixed = { ...broken, steps: [click('a'), { ...broken.steps[1]!, steps: [click('x')] } as MacroStep] };
    const columnProblem = parseMacro(fixed);
    if (columnProblem.ok) throw new Error('expected problems');
    expect(placeProblems(fixed, columnProblem.problems)).toEqual([{ message: columnProblem.problems[0], stepId: 'if', stepNumber: 2 }]);
  });
});
