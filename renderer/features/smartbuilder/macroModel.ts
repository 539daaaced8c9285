import { MACRO_SCHEMA_VERSION, MACRO_STEP_LABELS, walkSteps } from '#shared/macros/definition.ts';
import type { MacroDefinition, MacroInput, MacroInputKind, MacroStep, MacroStepType, MacroValue } from '#shared/macros/definition.ts';
import { describeSelector } from '#shared/macros/locator.ts';
import { macros } from '../../i18n/es-macros.ts';

/*
 * SmartBuilder's editing of a macro, as pure functions over the definition: steps are found by their
 * id wherever they sit (inside loops and conditions too), and every change returns a new definition.
 */

const text = macros.smartbuilder;

/** Where a list of steps sits: the macro's own, or a container step's 'steps' or 'otherwise'. */
export interface StepPlace {
  parentId: string | null;
  branch: 'steps' | 'otherwise';
}

/** One step as the list shows it: its number in reading order, how deep, and where it sits. */
export interface StepRow {
  step: MacroStep;
  number: number;
  depth: number;
  place: StepPlace;
  index: number;
  siblings: number;
}

export type ContainerStep = Extract<MacroStep, { steps: MacroStep[] }>;
export const isContainer = (step: MacroStep): step is ContainerStep => step.type === 'ifText' || step.type === 'forEachRow' || step.type === 'repeatWhile';

/** A fresh step id (the schema's alphabet, short enough to read in a problem). */
export function newStepId(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';
  let id = 's';
  for (let index = 0; index < 9; index += 1) id += alphabet[Math.floor(Math.random() * alphabet.length)];
  return id;
}

/** Every step in reading order with its number (the numbers the problems and the player use). */
export function stepRows(steps: readonly MacroStep[]): StepRow[] {
  const rows: StepRow[] = [];
  const visit = (list: readonly MacroStep[], depth: number, place: StepPlace) => {
    list.forEach((step, index) => {
      rows.push({ step, number: rows.length + 1, depth, place, index, siblings: list.length });
      if (step.type === 'ifText') {
        visit(step.steps, depth + 1, { parentId: step.id, branch: 'steps' });
        visit(step.otherwise, depth + 1, { parentId: step.id, branch: 'otherwise' });
      } else if (isContainer(step)) {
        visit(step.steps, depth + 1, { parentId: step.id, branch: 'steps' });
      }
    });
  };
  visit(steps, 1, { parentId: null, branch: 'steps' });
  return rows;
}

/** The list at `place`, changed by `change` (the rest of the tree as it was). */
function mapList(steps: MacroStep[], place: StepPlace, change: (list: MacroStep[]) => MacroStep[]): MacroStep[] {
  if (place.parentId === null) return change(steps);
  return steps.map((step) => {
    if (!isContainer(step)) return step;
    if (step.id === place.parentId) {
      if (place.branch === 'otherwise' && step.type === 'ifText') return { ...step, otherwise: change(step.otherwise) };
      return { ...step, steps: change(step.steps) };
    }
    const inner = { ...step, steps: mapList(step.steps, place, change) } as ContainerStep;
    if (inner.type === 'ifText') return { ...inner, otherwise: mapList(inner.otherwise, place, change) };
    return inner;
  });
}

function placeOf(steps: readonly MacroStep[], id: string): StepRow | undefined {
  return stepRows(steps).find((row) => row.step.id === id);
}

export function updateStep(steps: MacroStep[], id: string, change: (step: MacroStep) => MacroStep): MacroStep[] {
  const row = placeOf(steps, id);
  if (!row) return steps;
  return mapList(steps, row.place, (list) => list.map((step) => (step.id === id ? change(step) : step)));
}

/** Moves a step one place up (-1) or down (+1) among its siblings; at either end nothing moves. */
export function moveStep(steps: MacroStep[], id: string, by: -1 | 1): MacroStep[] {
  const row = placeOf(steps, id);
  if (!row) return steps;
  const to = row.index + by;
  if (to < 0 || to >= row.siblings) return steps;
  return mapList(steps, row.place, (list) => {
    const next = [...list];
    const [moved] = next.splice(row.index, 1);
    next.splice(to, 0, moved!);
    return next;
  });
}

export function removeStep(steps: MacroStep[], id: string): MacroStep[] {
  const row = placeOf(steps, id);
  if (!row) return steps;
  return mapList(steps, row.place, (list) => list.filter((step) => step.id !== id));
}

/** A copy of a step (its inner steps too) with new ids. */
export function copyStep(step: MacroStep): MacroStep {
  const copy = { ...structuredClone(step), id: newStepId() } as MacroStep;
  if (copy.type === 'ifText') return { ...copy, steps: copy.steps.map(copyStep), otherwise: copy.otherwise.map(copyStep) };
  if (isContainer(copy)) return { ...copy, steps: copy.steps.map(copyStep) } as MacroStep;
  return copy;
}

/** Duplicates a step right after itself; answers the copy's id too. */
export function duplicateStep(steps: MacroStep[], id: string): { steps: MacroStep[]; copyId: string | null } {
  const row = placeOf(steps, id);
  if (!row) return { steps, copyId: null };
  const copy = copyStep(row.step);
  return { steps: mapList(steps, row.place, (list) => [...list.slice(0, row.index + 1), copy, ...list.slice(row.index + 1)]), copyId: copy.id };
}

export function addStep(steps: MacroStep[], place: StepPlace, step: MacroStep): MacroStep[] {
  return mapList(steps, place, (list) => [...list, step]);
}

const emptyText = (): MacroValue => ({ kind: 'text', text: '' });

/** A new step of a type, with empty fields for the user to fill (the validation names what is missing). */
export function newStep(type: MacroStepType, startUrl = ''): MacroStep {
  const id = newStepId();
  switch (type) {
    case 'goto': return { id, type, url: { kind: 'text', text: startUrl } };
    case 'click': return { id, type, target: '' };
    case 'fill': return { id, type, target: '', value: emptyText() };
    case 'press': return { id, type, target: '', key: 'Enter' };
    case 'select': return { id, type, target: '', value: emptyText() };
    case 'check': return { id, type, target: '', checked: true };
    case 'upload': return { id, type, target: '', input: '' };
    case 'download': return { id, type, target: '' };
    case 'waitFor': return { id, type, target: '', state: 'visible' };
    case 'extractText': return { id, type, target: '', column: '' };
    case 'extractTable': return { id, type, target: '' };
    case 'extractList': return { id, type, target: '', fields: [{ column: '', target: '' }] };
    case 'ifText': return { id, type, text: emptyText(), present: true, steps: [], otherwise: [] };
    case 'forEachRow': return { id, type, input: '', steps: [] };
    case 'repeatWhile': return { id, type, target: 'internal:role=link[name="Siguiente"i]', maxTimes: 50, steps: [] };
  }
}

/** A blank macro for 'Nuevo robot'. */
export function blankMacro(): MacroDefinition {
  return {
    schemaVersion: MACRO_SCHEMA_VERSION,
    name: '',
    description: '',
    startUrl: 'https://',
    inputs: [],
    steps: [],
    charge: { per: 'run', slans: 1 },
    outputFileName: 'resultado.xlsx',
    timeLimitSeconds: 600,
  };
}

/** An input key from its label: 'Fecha de alta' -> 'fecha_de_alta', unique among `taken`. */
export function keyFromLabel(label: string, taken: readonly string[]): string {
  const slug = label
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+/, '')
    .replace(/_+$/, '')
    .slice(0, 34) || 'dato';
  let key = slug;
  for (let suffix = 2; taken.includes(key); suffix += 1) key = `${slug}_${suffix}`;
  return key;
}

/** The value a step types or visits, for steps that have one. */
export function valueOf(step: MacroStep): MacroValue | undefined {
  if (step.type === 'goto') return step.url;
  if (step.type === 'fill' || step.type === 'select') return step.value;
  if (step.type === 'ifText') return step.text;
  return undefined;
}

export function withValue(step: MacroStep, value: MacroValue): MacroStep {
  if (step.type === 'goto') return { ...step, url: value };
  if (step.type === 'fill' || step.type === 'select') return { ...step, value };
  if (step.type === 'ifText') return { ...step, text: value };
  return step;
}

/**
 * 'Convertir en dato': a new launch input (text or date) that starts from nothing, and the step now
 * types that input instead of the text it had. The typed text becomes the input's help, as an example.
 */
export function convertToInput(macro: MacroDefinition, stepId: string, label: string, kind: Extract<MacroInputKind, 'text' | 'date'>): MacroDefinition {
  const key = keyFromLabel(label, macro.inputs.map((input) => input.key));
  const row = stepRows(macro.steps).find((candidate) => candidate.step.id === stepId);
  const current = row ? valueOf(row.step) : undefined;
  const example = current?.kind === 'text' && current.text.trim() !== '' ? `Por ejemplo: ${current.text}`.slice(0, 300) : undefined;
  const input: MacroInput = { key, label: label.trim(), kind, required: true, ...(example !== undefined && { help: example }) };
  return {
    ...macro,
    inputs: [...macro.inputs, input],
    steps: updateStep(macro.steps, stepId, (step) => withValue(step, { kind: 'input', key })),
  };
}

/**
 * 'Repetir por cada fila de una hoja': the chosen steps (siblings) go inside a new forEachRow over a new
 * workbook input, placed where the first of them was. Answers a Spanish reason when they cannot.
 */
export function wrapInForEachRow(macro: MacroDefinition, ids: readonly string[], label: string): { ok: true; macro: MacroDefinition; loopId: string } | { ok: false; reason: string } {
  const rows = stepRows(macro.steps).filter((row) => ids.includes(row.step.id));
  if (rows.length === 0) return { ok: false, reason: text.steps.wrapNone };
  const place = rows[0]!.place;
  if (rows.some((row) => row.place.parentId !== place.parentId || row.place.branch !== place.branch)) return { ok: false, reason: text.steps.wrapSiblings };
  const key = keyFromLabel(label, macro.inputs.map((input) => input.key));
  const loopId = newStepId();
  const chosen = new Set(ids);
  const steps = mapList(macro.steps, place, (list) => {
    const inside = list.filter((step) => chosen.has(step.id));
    const first = list.findIndex((step) => chosen.has(step.id));
    const rest = list.filter((step) => !chosen.has(step.id));
    const loop: MacroStep = { id: loopId, type: 'forEachRow', input: key, steps: inside };
    const before = list.slice(0, first).filter((step) => !chosen.has(step.id)).length;
    return [...rest.slice(0, before), loop, ...rest.slice(before)];
  });
  return { ok: true, loopId, macro: { ...macro, inputs: [...macro.inputs, { key, label, kind: 'workbook', required: true }], steps } };
}

/** How a value reads in the list: a literal in quotes, an input by its label, a column, or a password. */
export function describeValue(value: MacroValue, inputs: readonly MacroInput[]): string {
  const d = text.describe;
  switch (value.kind) {
    case 'text': return d.textValue(value.text);
    case 'input': return d.inputValue(inputs.find((input) => input.key === value.key)?.label ?? value.key);
    case 'column': return d.columnValue(value.column);
    case 'secret': return d.secretValue;
  }
}

/** One line saying what a step does: 'Escribir: campo «Usuario» ← dato «NIF»'. */
export function describeStep(step: MacroStep, inputs: readonly MacroInput[]): string {
  const d = text.describe;
  const label = MACRO_STEP_LABELS[step.type];
  const target = 'target' in step && step.target !== '' ? describeSelector(step.target) : '…';
  switch (step.type) {
    case 'goto': return step.url.kind === 'text' ? d.goto(step.url.text || '…') : d.goto(describeValue(step.url, inputs));
    case 'fill':
    case 'select': return d.withTarget(label, d.value(target, describeValue(step.value, inputs)));
    case 'press': return d.press(step.key, target);
    case 'extractText': return d.withTarget(label, `${target} → ${step.column || '…'}`);
    case 'ifText': return d.ifText(describeValue(step.text, inputs), step.present);
    case 'forEachRow': return d.forEachRow(inputs.find((input) => input.key === step.input)?.label ?? (step.input || '…'));
    case 'repeatWhile': return d.repeatWhile(target, step.maxTimes);
    default: return d.withTarget(label, target);
  }
}

/** A validation problem tied to the step it is about, when it names one. */
export interface MacroProblem {
  message: string;
  /** The message as the step's own card shows it (without 'Paso N:'). */
  detail?: string;
  stepId?: string;
  stepNumber?: number;
}

/**
 * parseMacro's Spanish problems, each tied to its step: macroProblems() names 'El paso N (…)', and the
 * schema's issues carry a path ('steps.0.steps.2.target') that leads to the step through the tree.
 */
export function placeProblems(macro: MacroDefinition, problems: readonly string[]): MacroProblem[] {
  const rows = [...walkSteps(macro.steps)];
  const numbered = stepRows(macro.steps);
  return problems.map((message) => {
    const byNumber = /^El paso (\d+) /.exec(message);
    if (byNumber) {
      const number = Number(byNumber[1]);
      const row = rows[number - 1];
      return row ? { message, stepId: row.step.id, stepNumber: number } : { message };
    }
    const byPath = /^([\w.]+): (.*)$/.exec(message);
    if (!byPath) return { message };
    const [, path = '', detail = ''] = byPath;
    const parts = path.split('.');
    if (parts[0] !== 'steps' || parts[1] === undefined || !/^\d+$/.test(parts[1])) {
      const field = text.fields[parts[0] ?? ''];
      return { message: field ? `${field}: ${detail}` : message };
    }
    let list: readonly MacroStep[] = macro.steps;
    let step: MacroStep | undefined;
    let at = 1;
    while (parts[at] !== undefined && /^\d+$/.test(parts[at]!)) {
      step = list[Number(parts[at])];
      if (!step) break;
      const branch = parts[at + 1];
      if ((branch === 'steps' || branch === 'otherwise') && isContainer(step) && /^\d+$/.test(parts[at + 2] ?? '')) {
        list = branch === 'otherwise' && step.type === 'ifText' ? step.otherwise : step.steps;
        at += 2;
      } else break;
    }
    const number = step ? numbered.find((row) => row.step.id === step.id)?.number : undefined;
    return step && number !== undefined ? { message: text.stepProblem(number, detail), detail, stepId: step.id, stepNumber: number } : { message };
  });
}
