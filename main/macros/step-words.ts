import { DEFAULT_STEP_TIMEOUT_MS, MACRO_STEP_LABELS, type MacroStep, type MacroValue } from '#shared/macros/definition.ts';
import { describeSelector } from '#shared/macros/locator.ts';

/** The Spanish the player writes about its steps: the log's lines and the reasons a step failed. */

/** How a step reads in the log and in failures: 'Hacer clic en botón «Entrar»'. */
export function describeStep(step: MacroStep): string {
  const label = MACRO_STEP_LABELS[step.type];
  switch (step.type) {
    case 'goto':
      return step.url.kind === 'text' ? `Ir a ${step.url.text}` : `${label} (${valueLabel(step.url)})`;
    case 'click':
    case 'fill':
    case 'press':
    case 'select':
    case 'check':
    case 'upload':
    case 'download':
      return `${step.type === 'check' ? (step.checked ? 'Marcar' : 'Desmarcar') : label} en ${describeSelector(step.target)}`;
    case 'waitFor':
      return `Esperar a ${describeSelector(step.target)}`;
    case 'extractText':
      return `Copiar ${describeSelector(step.target)} a la columna «${step.column}»`;
    case 'extractTable':
    case 'extractList':
      return `${label} (${describeSelector(step.target)})`;
    case 'ifText':
      return `Si la página ${step.present ? 'dice' : 'no dice'} ${valueLabel(step.text)}`;
    case 'forEachRow':
      return `${label} de «${step.input}»`;
    case 'repeatWhile':
      return `Repetir mientras haya ${describeSelector(step.target)}`;
  }
}

function valueLabel(value: MacroValue): string {
  switch (value.kind) {
    case 'text':
      return `«${value.text}»`;
    case 'input':
      return `el dato «${value.key}»`;
    case 'column':
      return `la columna «${value.column}»`;
    case 'secret':
      return 'la contraseña guardada';
  }
}

export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

/** The Spanish end of 'El paso 3 (…) …' for what went wrong. */
export function reasonOf(error: unknown, step: MacroStep): string {
  if (error instanceof Error && error.name === 'TimeoutError') {
    const seconds = Math.round((step.timeoutMs ?? DEFAULT_STEP_TIMEOUT_MS) / 1000);
    return step.type === 'goto' ? `no ha podido cargar la página en ${seconds} s` : `no ha encontrado el elemento en ${seconds} s`;
  }
  const message = firstLine(error);
  if (/strict mode violation/i.test(message)) return 'ha encontrado varios elementos y no sabe cuál usar';
  if (/Target page, context or browser has been closed/i.test(message)) return 'no ha podido seguir: el navegador se ha cerrado';
  if (error instanceof Error && !/^[a-z]+\.[a-zA-Z]+:/.test(message)) return message.startsWith('no ') ? message : `ha fallado: ${message}`;
  return `ha fallado: ${message}`;
}
