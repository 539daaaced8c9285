/**
 * Where a macro step acts on the page. The recorder takes its selectors from Playwright's own selector
 * generator (role and accessible name first, then label, placeholder, text, test id; CSS only when
 * nothing readable fits), and the player hands them back to `page.locator()` unchanged, so a recording
 * replays with the engine that wrote it. SmartBuilder edits the readable kinds as fields (role + name,
 * label, text…) and keeps anything else as the raw selector.
 */

/** The readable kinds SmartBuilder offers; 'selector' is any other Playwright selector, kept as written. */
export const LOCATOR_KINDS = ['role', 'label', 'placeholder', 'text', 'testid', 'selector'] as const;
export type LocatorKind = (typeof LOCATOR_KINDS)[number];

export const LOCATOR_KIND_LABELS: Record<LocatorKind, string> = {
  role: 'Rol y nombre',
  label: 'Etiqueta',
  placeholder: 'Texto de ayuda',
  text: 'Texto',
  testid: 'Identificador de prueba',
  selector: 'Selector avanzado',
};

/** ARIA roles a step may name (the ones forms, tables and navigation use). */
export const LOCATOR_ROLES = [
  'button', 'link', 'textbox', 'checkbox', 'radio', 'combobox', 'listbox', 'option', 'searchbox', 'spinbutton',
  'tab', 'menuitem', 'heading', 'table', 'row', 'cell', 'columnheader', 'img', 'dialog', 'switch', 'list', 'listitem', 'navigation', 'region',
] as const;
export type LocatorRole = (typeof LOCATOR_ROLES)[number];

export const LOCATOR_ROLE_LABELS: Record<LocatorRole, string> = {
  button: 'botón', link: 'enlace', textbox: 'campo de texto', checkbox: 'casilla', radio: 'opción', combobox: 'desplegable',
  listbox: 'lista de opciones', option: 'opción de lista', searchbox: 'buscador', spinbutton: 'campo numérico', tab: 'pestaña',
  menuitem: 'elemento de menú', heading: 'título', table: 'tabla', row: 'fila', cell: 'celda', columnheader: 'cabecera de columna',
  img: 'imagen', dialog: 'ventana', switch: 'interruptor', list: 'lista', listitem: 'elemento de lista', navigation: 'navegación', region: 'zona',
};

/** A selector in the parts SmartBuilder edits; `exact` false matches case-insensitively and by substring. */
export type LocatorParts =
  | { kind: 'role'; role: string; name: string; exact: boolean }
  | { kind: 'label' | 'placeholder' | 'text'; text: string; exact: boolean }
  | { kind: 'testid'; id: string }
  | { kind: 'selector'; selector: string };

/** A quoted value as Playwright's internal selectors write it ("…" with \ and " escaped). */
function quoted(value: string): string {
  return JSON.stringify(value);
}

/** The Playwright selector of the parts (the same text its selector generator writes). */
export function selectorOf(parts: LocatorParts): string {
  const flag = (exact: boolean) => (exact ? 's' : 'i');
  switch (parts.kind) {
    case 'role':
      return parts.name === '' ? `internal:role=${parts.role}` : `internal:role=${parts.role}[name=${quoted(parts.name)}${flag(parts.exact)}]`;
    case 'label':
      return `internal:label=${quoted(parts.text)}${flag(parts.exact)}`;
    case 'placeholder':
      return `internal:attr=[placeholder=${quoted(parts.text)}${flag(parts.exact)}]`;
    case 'text':
      return `internal:text=${quoted(parts.text)}${flag(parts.exact)}`;
    case 'testid':
      return `internal:testid=[data-testid=${quoted(parts.id)}s]`;
    case 'selector':
      return parts.selector;
  }
}

const QUOTED = '"((?:[^"\\\\]|\\\\.)*)"([is])';
const PATTERNS: { kind: LocatorParts['kind']; pattern: RegExp }[] = [
  { kind: 'role', pattern: new RegExp(`^internal:role=([a-z]+)(?:\\[name=${QUOTED}\\])?$`) },
  { kind: 'label', pattern: new RegExp(`^internal:label=${QUOTED}$`) },
  { kind: 'placeholder', pattern: new RegExp(`^internal:attr=\\[placeholder=${QUOTED}\\]$`) },
  { kind: 'text', pattern: new RegExp(`^internal:text=${QUOTED}$`) },
  { kind: 'testid', pattern: new RegExp(`^internal:testid=\\[data-testid=${QUOTED}\\]$`) },
];

function unquote(body: string): string {
  return JSON.parse(`"${body}"`) as string;
}

/**
 * The parts of a selector when it is one of the readable kinds, else { kind: 'selector' } with it as
 * written (chained selectors, nth=, CSS). selectorOf(partsOf(s)) === s for every selector this reads.
 */
export function partsOf(selector: string): LocatorParts {
  for (const { kind, pattern } of PATTERNS) {
    const match = pattern.exec(selector);
    if (!match) continue;
    try {
      if (kind === 'role') {
        const [, role = '', body, flag] = match;
        return { kind, role, name: body === undefined ? '' : unquote(body), exact: flag === 's' };
      }
      const [, body = '', flag] = match;
      if (kind === 'testid') return { kind, id: unquote(body) };
      return { kind, text: unquote(body), exact: flag === 's' } as LocatorParts;
    } catch {
      break;
    }
  }
  return { kind: 'selector', selector };
}

/** How a step's target reads in Spanish: 'botón «Entrar»', 'campo «Usuario»', 'texto «Siguiente»'. */
export function describeSelector(selector: string): string {
  const parts = partsOf(selector);
  switch (parts.kind) {
    case 'role': {
      const role = LOCATOR_ROLE_LABELS[parts.role as LocatorRole] ?? parts.role;
      return parts.name === '' ? role : `${role} «${parts.name}»`;
    }
    case 'label':
      return `campo «${parts.text}»`;
    case 'placeholder':
      return `campo con ayuda «${parts.text}»`;
    case 'text':
      return `texto «${parts.text}»`;
    case 'testid':
      return `elemento «${parts.id}»`;
    case 'selector':
      return `elemento ${parts.selector.length > 60 ? `${parts.selector.slice(0, 57)}…` : parts.selector}`;
  }
}
