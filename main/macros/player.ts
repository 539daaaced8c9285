/**
 * The macro player (issue 41): walks a MacroDefinition's steps in the robot's Chromium, the way
 * common.md's run semantics say. Every step is numbered as macroProblems() numbers them (depth first),
 * logged in Spanish ('Paso 3: Hacer clic en botón «Entrar»'), and caught on its own: a broken locator
 * never throws out of the robot. Outside a loop a failed step ends the run (Fail, 'error-paso-N.png');
 * inside forEachRow it fails that row only (RESULTADO, 'error-fila-N.png', at most 20 screenshots).
 */
import type { Locator, Page } from 'playwright-core';
import * as XLSX from 'xlsx';
import type { RobotFile, RobotResult } from '#shared/flows/robot.ts';
import { DEFAULT_STEP_TIMEOUT_MS, parseMacro, walkSteps, type MacroDefinition, type MacroStep, type MacroValue } from '#shared/macros/definition.ts';
import { MACRO_DEFINITION_INPUT } from '#shared/macros/to-flow.ts';
import type { DesktopRobotContext } from '../../resources/flows/_lib/desktop.ts';
import { fileBytes } from '../../resources/flows/_lib/files.ts';
import { cellAt, cellText, firstSheetTable, readWorkbook, sheetFromRows, writeWorkbook } from '../../resources/flows/_lib/workbook.ts';
import { SECRET_MISSING_MESSAGE } from './secrets.ts';
import { describeStep, firstLine, reasonOf } from './step-words.ts';

/** The only addresses a 'goto' may open (the definition's startUrl is held to the same). */
const WEB_ADDRESS = /^https?:\/\/[^\s]+$/i;

export const RESULT_SHEET = 'Resultado';
export const DATA_SHEET = 'Datos';
export const RESULT_COLUMN = 'RESULTADO';
export const MAX_ROW_SCREENSHOTS = 20;
export const STOPPED_MESSAGE = 'El robot se ha detenido antes de terminar';

/** Where the player finds the passwords recorded on this machine. */
export interface SecretReader {
  reveal(ref: string): Promise<string | null>;
}

/** A step that could not be done: its number, its description and the Spanish reason. */
class StepFailure extends Error {
  constructor(readonly number: number, readonly description: string, readonly reason: string) {
    super(`El paso ${number} (${description}) ${reason}`);
  }
}

class Stopped extends Error {
  constructor() {
    super(STOPPED_MESSAGE);
  }
}

/** A row of the workbook being looped over: its cells by header, and its number as the sheet shows it. */
interface Row {
  number: number;
  cells: Map<string, string>;
}

interface Scope {
  row: Row | null;
  /** The columns extractText wrote for this row (or for the single row outside a loop). */
  extracted: Map<string, string>;
  /** Log lines inside a loop say which row they belong to. */
  prefix: string;
}

export class MacroPlayer {
  private readonly numbers = new Map<MacroStep, number>();
  private readonly outputs: RobotFile[] = [];
  private readonly dataRows: string[][] = [];
  private dataHeader: string[] | null = null;
  private readonly loopRows: { row: Row; header: string[]; extracted: Map<string, string>; result: string }[] = [];
  private loopHeader: string[] = [];
  private rowScreenshots = 0;
  private extracts = false;
  private page!: Page;

  constructor(private readonly macro: MacroDefinition, private readonly context: DesktopRobotContext, private readonly secrets: SecretReader) {
    let number = 0;
    for (const { step } of walkSteps(macro.steps)) {
      number += 1;
      this.numbers.set(step, number);
      if (step.type === 'extractText' || step.type === 'extractTable' || step.type === 'extractList' || step.type === 'forEachRow') this.extracts = true;
    }
  }

  async play(): Promise<RobotResult> {
    const { macro, context } = this;
    const top: Scope = { row: null, extracted: new Map(), prefix: '' };
    try {
      context.log('info', `Robot «${macro.name}»: abriendo ${macro.startUrl}`);
      this.page = await context.openBrowser(macro.certificate ? { certificateInput: macro.certificate.input, origins: macro.certificate.origins } : {});
      await this.page.goto(macro.startUrl, { timeout: 60_000 });
      context.progress(0, 1);
      await this.runSteps(macro.steps, top);
    } catch (error) {
      if (error instanceof Stopped || context.signal.aborted) return this.finish('Fail', STOPPED_MESSAGE, top);
      if (error instanceof StepFailure) {
        context.log('error', error.message);
        await this.screenshot(`error-paso-${error.number}.png`);
        return this.finish('Fail', error.message, top);
      }
      const message = `No se ha podido abrir ${macro.startUrl}: ${firstLine(error)}`;
      context.log('error', message);
      await this.screenshot('error-inicio.png');
      return this.finish('Fail', message, top);
    }
    return this.finish('Success', undefined, top);
  }

  private finish(result: 'Success' | 'Fail', message: string | undefined, top: Scope): RobotResult {
    const { macro } = this;
    const rowsOk = this.loopRows.filter((row) => row.result === 'OK').length;
    if (this.extracts) this.outputs.unshift({ name: macro.outputFileName, data: this.workbook(top) });
    const summary: Record<string, number> = {};
    if (this.loopRows.length > 0) {
      summary['Filas'] = this.loopRows.length;
      summary['Filas correctas'] = rowsOk;
      summary['Filas con error'] = this.loopRows.length - rowsOk;
    }
    if (this.dataRows.length > 0) summary['Filas copiadas'] = this.dataRows.length;
    const usageUnits = macro.charge.per === 'row' ? rowsOk : result === 'Success' ? 1 : 0;
    if (result === 'Success') this.context.log('info', 'Robot terminado');
    return { result, usageUnits, outputs: this.outputs, ...(Object.keys(summary).length > 0 && { summary }), ...(message !== undefined && { message }) };
  }

  /** Sheet 'Resultado' (the loop's rows, or the single row outside a loop) and 'Datos' (tables and lists). */
  private workbook(top: Scope): Uint8Array {
    const book = XLSX.utils.book_new();
    let rows: string[][];
    if (this.loopRows.length > 0) {
      const outside = [...top.extracted.keys()];
      const added = [...new Set(this.loopRows.flatMap((row) => [...row.extracted.keys()]))];
      const header = [...this.loopHeader, ...added, ...outside.filter((column) => !added.includes(column)), RESULT_COLUMN];
      rows = [header, ...this.loopRows.map(({ row, extracted, result }) => header.map((column) => {
        if (column === RESULT_COLUMN) return result;
        return extracted.get(column) ?? row.cells.get(column) ?? top.extracted.get(column) ?? '';
      }))];
    } else {
      const header = [...top.extracted.keys()];
      rows = header.length > 0 ? [header, header.map((column) => top.extracted.get(column) ?? '')] : [[]];
    }
    XLSX.utils.book_append_sheet(book, sheetFromRows(rows), RESULT_SHEET);
    if (this.dataHeader !== null || this.dataRows.length > 0) {
      XLSX.utils.book_append_sheet(book, sheetFromRows([this.dataHeader ?? [], ...this.dataRows]), DATA_SHEET);
    }
    return writeWorkbook(book);
  }

  private async runSteps(steps: readonly MacroStep[], scope: Scope): Promise<void> {
    for (const step of steps) {
      if (this.context.signal.aborted) throw new Stopped();
      const number = this.numbers.get(step) ?? 0;
      const description = describeStep(step);
      this.context.log('info', `${scope.prefix}Paso ${number}: ${description}`);
      try {
        await this.runStep(step, scope);
      } catch (error) {
        if (error instanceof StepFailure || error instanceof Stopped) throw error;
        if (this.context.signal.aborted) throw new Stopped();
        throw new StepFailure(number, description, reasonOf(error, step));
      }
    }
  }

  private locator(step: { target: string }): Locator {
    return this.page.locator(step.target);
  }

  private async runStep(step: MacroStep, scope: Scope): Promise<void> {
    const timeout = step.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS;
    switch (step.type) {
      case 'goto': {
        const url = await this.value(step.url, scope);
        // A value from a row or an input could name file:// or a browser page: only web pages, as startUrl.
        if (!WEB_ADDRESS.test(url)) throw new Error(`solo puede ir a direcciones https:// o http://, no a «${url.slice(0, 80)}»`);
        await this.page.goto(url, { timeout: Math.max(timeout, 30_000) });
        return;
      }
      case 'click':
        await this.locator(step).click({ timeout, ...(step.count === 2 && { clickCount: 2 }) });
        return;
      case 'fill':
        await this.locator(step).fill(await this.value(step.value, scope), { timeout });
        return;
      case 'press':
        await this.locator(step).press(step.key, { timeout });
        return;
      case 'select':
        return this.select(this.locator(step), await this.value(step.value, scope), timeout);
      case 'check':
        await this.locator(step).setChecked(step.checked, { timeout });
        return;
      case 'upload': {
        const file = this.context.files[step.input]?.[0];
        if (!file) throw new Error(`no tiene el fichero del dato «${step.input}»`);
        await this.locator(step).setInputFiles({ name: file.name, mimeType: 'application/octet-stream', buffer: Buffer.from(await fileBytes(file)) }, { timeout });
        return;
      }
      case 'download':
        return this.download(step, timeout);
      case 'waitFor':
        await this.locator(step).first().waitFor({ state: step.state, timeout });
        return;
      case 'extractText': {
        const text = await this.locator(step).first().innerText({ timeout });
        scope.extracted.set(step.column, text.trim());
        return;
      }
      case 'extractTable':
        return this.extractTable(step, timeout);
      case 'extractList':
        return this.extractList(step, timeout);
      case 'ifText': {
        const wanted = await this.value(step.text, scope);
        const body = await this.page.locator('body').innerText({ timeout });
        const present = body.toLocaleLowerCase('es').includes(wanted.toLocaleLowerCase('es'));
        await this.runSteps(present === step.present ? step.steps : step.otherwise, scope);
        return;
      }
      case 'forEachRow':
        return this.forEachRow(step);
      case 'repeatWhile':
        return this.repeatWhile(step, scope, timeout);
    }
  }

  private async value(value: MacroValue, scope: Scope): Promise<string> {
    switch (value.kind) {
      case 'text':
        return value.text;
      case 'input': {
        const given = this.context.inputs[value.key];
        if (given === undefined || given === null) throw new Error(`no tiene el dato «${value.key}»`);
        return String(given);
      }
      case 'column': {
        const cell = scope.row?.cells.get(value.column);
        if (cell === undefined) throw new Error(`no encuentra la columna «${value.column}» en la hoja`);
        return cell;
      }
      case 'secret': {
        const password = await this.secrets.reveal(value.ref);
        if (password === null) throw new Error(SECRET_MISSING_MESSAGE);
        return password;
      }
    }
  }

  /** By the option's label (what the user saw), else by its value (what the recorder wrote). */
  private async select(locator: Locator, wanted: string, timeout: number): Promise<void> {
    const options = await locator.evaluate((element) => [...((element as unknown as SelectElement).options ?? [])].map((option) => ({ label: option.label.trim(), value: option.value })), undefined, { timeout });
    const chosen = options.find((option) => option.label === wanted.trim()) ?? options.find((option) => option.value === wanted);
    if (!chosen) throw new Error(`no encuentra la opción «${wanted}» en el desplegable`);
    await locator.selectOption({ value: chosen.value }, { timeout });
  }

  private async download(step: Extract<MacroStep, { type: 'download' }>, timeout: number): Promise<void> {
    const [download] = await Promise.all([this.page.waitForEvent('download', { timeout }), this.locator(step).click({ timeout })]);
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    const data = new Uint8Array(await readFile(path));
    this.outputs.push({ name: this.freeName(step.fileName || download.suggestedFilename() || 'descarga'), data });
  }

  private freeName(wanted: string): string {
    const taken = new Set(this.outputs.map((file) => file.name.toLowerCase()));
    if (!taken.has(wanted.toLowerCase())) return wanted;
    const dot = wanted.lastIndexOf('.');
    const [stem, extension] = dot > 0 ? [wanted.slice(0, dot), wanted.slice(dot)] : [wanted, ''];
    for (let copy = 2; ; copy += 1) {
      const name = `${stem} (${copy})${extension}`;
      if (!taken.has(name.toLowerCase())) return name;
    }
  }

  private async extractTable(step: Extract<MacroStep, { type: 'extractTable' }>, timeout: number): Promise<void> {
    const table = this.locator(step).first();
    await table.waitFor({ state: 'visible', timeout });
    const { header, rows } = await table.evaluate((root) => {
      const element = root as unknown as PageElement;
      const text = (cell: PageElement) => (cell.innerText ?? cell.textContent ?? '').trim();
      const all = [...element.querySelectorAll('tr')];
      const headerRow = all.find((row) => row.querySelector('th') !== null && row.querySelector('td') === null);
      return {
        header: headerRow ? [...headerRow.children].map(text) : [],
        rows: all.filter((row) => row !== headerRow && row.querySelector('td') !== null).map((row) => [...row.children].map(text)),
      };
    });
    this.dataHeader ??= header;
    this.dataRows.push(...rows);
  }

  private async extractList(step: Extract<MacroStep, { type: 'extractList' }>, timeout: number): Promise<void> {
    const items = this.locator(step);
    await items.first().waitFor({ state: 'visible', timeout });
    this.dataHeader ??= step.fields.map((field) => field.column);
    for (const item of await items.all()) {
      const row: string[] = [];
      for (const field of step.fields) row.push((await item.locator(field.target).allInnerTexts()).join(' ').trim());
      this.dataRows.push(row);
    }
  }

  private async repeatWhile(step: Extract<MacroStep, { type: 'repeatWhile' }>, scope: Scope, timeout: number): Promise<void> {
    for (let round = 1; round <= step.maxTimes; round += 1) {
      await this.runSteps(step.steps, scope);
      if (round === step.maxTimes) return;
      const next = this.locator(step).first();
      if (!(await next.isVisible()) || !(await next.isEnabled())) return;
      await next.click({ timeout });
      await this.page.waitForLoadState('load', { timeout });
    }
  }

  private async forEachRow(step: Extract<MacroStep, { type: 'forEachRow' }>): Promise<void> {
    const file = this.context.files[step.input]?.[0];
    if (!file) throw new Error(`no tiene la hoja del dato «${step.input}»`);
    const table = (() => {
      const workbook = readWorkbook({ name: file.name, data: file.data });
      return workbook ? firstSheetTable(workbook) : null;
    })();
    if (!table) throw new Error(`no puede leer la hoja «${file.name}»`);
    this.loopHeader = table.headers.filter((header) => header !== '');
    const total = table.dataRows.length;
    let ok = 0;
    this.context.progress(0, total);
    for (const sheetRow of table.dataRows) {
      if (this.context.signal.aborted) throw new Stopped();
      const cells = new Map<string, string>();
      table.headers.forEach((header, column) => {
        if (header !== '') cells.set(header, cellText(cellAt(table.sheet, sheetRow, column)));
      });
      const row: Row = { number: sheetRow + 1, cells };
      const scope: Scope = { row, extracted: new Map(), prefix: `Fila ${row.number} · ` };
      let result = 'OK';
      try {
        await this.runSteps(step.steps, scope);
        ok += 1;
      } catch (error) {
        if (error instanceof Stopped || this.context.signal.aborted) throw new Stopped();
        result = error instanceof Error ? error.message : String(error);
        this.context.log('warn', `Fila ${row.number}: ${result}`);
        if (this.rowScreenshots < MAX_ROW_SCREENSHOTS) {
          this.rowScreenshots += 1;
          await this.screenshot(`error-fila-${row.number}.png`);
        }
      }
      this.loopRows.push({ row, header: this.loopHeader, extracted: scope.extracted, result });
      this.context.progress(ok, total);
    }
  }

  private async screenshot(name: string): Promise<void> {
    try {
      const data = await this.page.screenshot({ type: 'png', timeout: 5_000 });
      this.outputs.push({ name: this.freeName(name), data: new Uint8Array(data) });
    } catch {
      // No page to show (the browser never opened, or it was closed): the message says enough.
    }
  }
}

/** The little of the DOM the page functions use (main/ compiles without the DOM's types). */
interface PageElement {
  innerText?: string;
  textContent: string | null;
  children: ArrayLike<PageElement> & Iterable<PageElement>;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement> & Iterable<PageElement>;
}
interface SelectElement {
  options?: Iterable<{ label: string; value: string }>;
}

/** The macro robot's work: the definition from its run input, checked, then played. */
export async function playMacroRun(context: DesktopRobotContext, secrets: SecretReader): Promise<RobotResult> {
  const raw = context.inputs[MACRO_DEFINITION_INPUT];
  const parsed = parseMacro(typeof raw === 'string' ? safeJson(raw) : raw);
  if (!parsed.ok) {
    const message = `La definición del robot no es válida: ${parsed.problems.join('; ')}`;
    context.log('error', message);
    return { result: 'Fail', usageUnits: 0, outputs: [], message };
  }
  return new MacroPlayer(parsed.macro, context, secrets).play();
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
