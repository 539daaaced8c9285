/**
 * What Playwright's recorder wrote, as a macro (issue 41). Pure: the recorder (recorder.ts) collects the
 * actions as they arrive (a fill's text merged through actionUpdated, a password field already swapped
 * for a secret reference, a download signal marked on the click that started it) and this turns them
 * into a MacroDefinition draft that passes parseMacro. Typed text stays { kind: 'text' }: SmartBuilder
 * turns it into an input when the user wants.
 */
import { MACRO_SCHEMA_VERSION, type MacroDefinition, type MacroInput, type MacroStep } from '#shared/macros/definition.ts';

/** One action of the recorder's 'jsonl' stream (the fields this uses), plus what the recorder learnt. */
export interface RecordedAction {
  name: string;
  selector?: string;
  url?: string;
  /** fill: the whole text typed so far (or 'C:\\fakepath\\name' for a file input). */
  text?: string;
  /** press: the key; modifiers: Playwright's bit mask (1 Alt, 2 Control, 4 Meta, 8 Shift). */
  key?: string;
  modifiers?: number;
  /** select: the chosen options' values. */
  options?: string[];
  clickCount?: number;
  /** fill on a password field: its text is not kept here, this reference is. */
  secretRef?: string;
  /** select: the chosen options' labels, as the page showed them (the recorder asks it). */
  optionLabels?: string[];
  /** A download started with this action (the recorder's 'download' signal). */
  download?: boolean;
}

export const FAKEPATH = /^C:\\fakepath\\(.+)$/;
/** The keys a press step may name (shared/macros/definition.ts checks the same). */
const KEY_NAMES = /^(?:(?:Control|Shift|Alt|Meta)\+)*(?:[A-Za-z0-9]|Enter|Tab|Escape|Backspace|Delete|Space|ArrowUp|ArrowDown|ArrowLeft|ArrowRight|Home|End|PageUp|PageDown|F\d{1,2})$/;
/** A click on the page itself (outside any element) does nothing a replay needs. */
const PAGE_SELECTORS = new Set(['html', 'body', 'internal:role=document']);

function keyOf(action: RecordedAction): string | null {
  if (!action.key) return null;
  const mask = action.modifiers ?? 0;
  const modifiers = [[2, 'Control'], [1, 'Alt'], [8, 'Shift'], [4, 'Meta']].filter(([bit]) => (mask & (bit as number)) !== 0).map(([, name]) => name);
  const key = action.key === ' ' ? 'Space' : action.key;
  const combined = [...modifiers, key].join('+');
  return KEY_NAMES.test(combined) ? combined : null;
}

function sameUrl(a: string, b: string): boolean {
  const normal = (url: string) => (URL.canParse(url) ? new URL(url).href : url);
  return normal(a) === normal(b);
}

/** The steps and the inputs they need (one 'file' input per upload), in recording order. */
export function recordingToSteps(actions: readonly RecordedAction[], startUrl: string): { steps: MacroStep[]; inputs: MacroInput[] } {
  const steps: MacroStep[] = [];
  const inputs: MacroInput[] = [];
  let navigated = false;
  const id = () => `p${steps.length + 1}`;
  const merged = mergeFills(actions);
  merged.forEach((action, index) => {
    const target = action.selector ?? '';
    const next = merged[index + 1];
    switch (action.name) {
      case 'navigate': {
        const url = action.url ?? '';
        const first = !navigated;
        navigated = true;
        // The first navigation is the start address itself: the browser opens there.
        if ((first && sameUrl(url, startUrl)) || !/^https?:\/\//.test(url)) return;
        steps.push({ id: id(), type: 'goto', url: { kind: 'text', text: url } });
        return;
      }
      case 'click': {
        if (!target || PAGE_SELECTORS.has(target)) return;
        if (action.download) {
          steps.push({ id: id(), type: 'download', target });
          return;
        }
        // Enter in a form 'clicks' its default button (a click of no mouse: clickCount 0), and Enter or
        // Space on a button clicks it: the press replays that, a click as well would do it twice.
        const previous = merged[index - 1];
        if (action.clickCount === 0 && previous?.name === 'press' && (previous.key === 'Enter' || previous.key === ' ')) return;
        // A click into a field that is then typed into: the fill focuses it anyway.
        if (next && (next.name === 'fill' || next.name === 'press') && next.selector === target && (action.clickCount ?? 1) === 1) return;
        steps.push({ id: id(), type: 'click', target, ...((action.clickCount ?? 1) >= 2 && { count: 2 }) });
        return;
      }
      case 'fill': {
        if (!target) return;
        const file = FAKEPATH.exec(action.text ?? '');
        if (file) {
          const key = inputs.some((input) => input.key === 'fichero') ? `fichero_${inputs.length + 1}` : 'fichero';
          inputs.push({ key, label: inputs.length === 0 ? 'Fichero para subir' : `Fichero para subir ${inputs.length + 1}`, kind: 'file', required: true, help: `Al grabar se subió «${file[1]}»` });
          steps.push({ id: id(), type: 'upload', target, input: key });
          return;
        }
        const value = action.secretRef ? { kind: 'secret' as const, ref: action.secretRef } : { kind: 'text' as const, text: (action.text ?? '').slice(0, 2000) };
        steps.push({ id: id(), type: 'fill', target, value });
        return;
      }
      case 'press': {
        const key = keyOf(action);
        if (target && key) steps.push({ id: id(), type: 'press', target, key });
        return;
      }
      case 'select': {
        const value = action.optionLabels?.[0] ?? action.options?.[0];
        if (target && value !== undefined) steps.push({ id: id(), type: 'select', target, value: { kind: 'text', text: value } });
        return;
      }
      case 'check':
      case 'uncheck':
        if (target) steps.push({ id: id(), type: 'check', target, checked: action.name === 'check' });
        return;
      case 'setInputFiles':
        // Older recorders name an upload this way; it has no file name to keep.
        if (target) {
          const key = inputs.some((input) => input.key === 'fichero') ? `fichero_${inputs.length + 1}` : 'fichero';
          inputs.push({ key, label: inputs.length === 0 ? 'Fichero para subir' : `Fichero para subir ${inputs.length + 1}`, kind: 'file', required: true });
          steps.push({ id: id(), type: 'upload', target, input: key });
        }
        return;
      default:
        // openPage, closePage, assertions…: nothing a replay does.
        return;
    }
  });
  return { steps, inputs };
}

/** Consecutive fills of one field are one fill of its last text (typing in pieces, going back to it). */
function mergeFills(actions: readonly RecordedAction[]): RecordedAction[] {
  const merged: RecordedAction[] = [];
  for (const action of actions) {
    const last = merged.at(-1);
    if (action.name === 'fill' && last?.name === 'fill' && last.selector === action.selector && !FAKEPATH.test(action.text ?? '')) {
      merged[merged.length - 1] = { ...action, secretRef: action.secretRef ?? last.secretRef };
      continue;
    }
    merged.push(action);
  }
  return merged;
}

/** 'Grabación 02/12/2026 15:04' in the machine's local time. */
export function recordingName(at: Date): string {
  const two = (value: number) => String(value).padStart(2, '0');
  return `Grabación ${two(at.getDate())}/${two(at.getMonth() + 1)}/${at.getFullYear()} ${two(at.getHours())}:${two(at.getMinutes())}`;
}

/** The whole draft: name, start, certificate (when one was chosen for an https start), inputs, steps, defaults. */
export function recordingToMacro(actions: readonly RecordedAction[], options: { startUrl: string; withCertificate: boolean; at: Date }): MacroDefinition {
  const { steps, inputs } = recordingToSteps(actions, options.startUrl);
  const https = options.startUrl.startsWith('https://') && URL.canParse(options.startUrl);
  const certificate = options.withCertificate && https ? { input: 'certificado', origins: [new URL(options.startUrl).origin] } : undefined;
  if (certificate) inputs.unshift({ key: 'certificado', label: 'Certificado', kind: 'certificate', required: true });
  return {
    schemaVersion: MACRO_SCHEMA_VERSION,
    name: recordingName(options.at),
    description: '',
    startUrl: options.startUrl,
    ...(certificate && { certificate }),
    inputs,
    // Nothing recorded still makes a valid draft: the robot opens the page and waits for it.
    steps: steps.length > 0 ? steps : [{ id: 'p1', type: 'waitFor', target: 'body', state: 'visible', note: 'Abrir la página' }],
    charge: { per: 'run', slans: 1 },
    outputFileName: 'resultado.xlsx',
    timeLimitSeconds: 600,
  };
}
