/**
 * The scraper's preview (issue 41, PreviewScrape): opens a page in the robot's Chromium (headless, the
 * robots' launch options, the chosen certificate) and proposes what an extractTable or extractList step
 * could copy from it: every <table> with its header and first rows, and every run of at least three
 * sibling blocks with the same structure (cards, result items) with a column per text field inside.
 * Selectors are Playwright selectors the player passes to page.locator(): a table's role and name when
 * it has one, else its id, else its position; a list's items by a CSS path from the nearest id.
 */
import type { Page } from 'playwright-core';
import { browserLaunchOptions } from '../robots/sdk/browser.ts';

export const PREVIEW_ROWS = 20;
const MAX_CANDIDATES = 12;

export interface ScrapeCandidate {
  kind: 'table' | 'list';
  /** extractTable's target, or extractList's items. */
  target: string;
  /** extractList's fields: each a column and a selector inside one item. */
  fields?: { column: string; target: string }[];
  header: string[];
  /** The first PREVIEW_ROWS rows. */
  rows: string[][];
  total: number;
}

export interface ScrapeOptions {
  url: string;
  certificate?: { pfx: Buffer; passphrase: string };
  chromiumPath: string | null;
  env: NodeJS.ProcessEnv;
  ignoreHTTPSErrors?: boolean;
}

/**
 * Runs in the page (as a string: main/ compiles without the DOM's types). Answers the candidates with
 * all their rows; tables' selectors are settled in Node (findCandidates) where Playwright can check them.
 */
const FIND_IN_PAGE = `(() => {
  const text = (element) => (element.innerText ?? element.textContent ?? '').replace(/\\s+/g, ' ').trim();
  const cssEscape = (value) => (window.CSS && CSS.escape ? CSS.escape(value) : value.replace(/[^\\w-]/g, '\\\\$&'));
  const visible = (element) => { const box = element.getBoundingClientRect(); return box.width > 0 && box.height > 0; };
  const tables = [...document.querySelectorAll('table')].map((table, index) => {
    const rows = [...table.querySelectorAll('tr')];
    const headerRow = rows.find((row) => row.querySelector('th') && !row.querySelector('td'));
    const label = table.getAttribute('aria-label') || (table.caption ? text(table.caption) : '');
    return {
      index,
      id: table.id || '',
      label,
      visible: visible(table),
      header: headerRow ? [...headerRow.children].map(text) : [],
      rows: rows.filter((row) => row !== headerRow && row.querySelector('td')).map((row) => [...row.children].map(text)),
    };
  });
  /** A block's shape: its tag and classes, and its children's, two levels down. */
  const shape = (element, depth) => element.tagName + '.' + [...element.classList].sort().join('.') + (depth > 0 ? '(' + [...element.children].map((child) => shape(child, depth - 1)).join(',') + ')' : '');
  /** A CSS path from the nearest element with an id (or from body). */
  const pathTo = (element) => {
    const parts = [];
    for (let node = element; node && node !== document.body && node !== document.documentElement; node = node.parentElement) {
      if (node.id) { parts.unshift('#' + cssEscape(node.id)); return parts.join(' > '); }
      const siblings = [...(node.parentElement?.children ?? [])].filter((sibling) => sibling.tagName === node.tagName);
      parts.unshift(node.tagName.toLowerCase() + (siblings.length > 1 ? ':nth-of-type(' + (siblings.indexOf(node) + 1) + ')' : ''));
    }
    return ['body', ...parts].join(' > ');
  };
  const itemSelector = (item) => item.tagName.toLowerCase() + [...item.classList].map((name) => '.' + cssEscape(name)).join('');
  /** Inside one item: each element with text of its own, by a selector relative to the item. */
  const fieldsOf = (item) => {
    const fields = [];
    const seen = new Set();
    const walk = (element) => {
      for (const child of element.children) {
        const own = [...child.childNodes].some((node) => node.nodeType === 3 && node.textContent.trim() !== '');
        if (own) {
          const selector = itemSelector(child);
          if (!seen.has(selector)) { seen.add(selector); fields.push(selector); }
        } else walk(child);
      }
    };
    walk(item);
    if (fields.length === 0) fields.push(':scope');
    return fields;
  };
  /** A field's column: its class ('precio'), else what its tag is ('Título' for a heading, 'Enlace'), else its tag. */
  const columnOf = (field) => {
    if (field === ':scope') return 'Texto';
    const [tag, ...classes] = field.split('.');
    if (classes.length > 0) return classes.join(' ');
    return /^h[1-6]$/.test(tag) ? 'Título' : tag === 'a' ? 'Enlace' : tag;
  };
  const lists = [];
  for (const parent of document.querySelectorAll('body, body *')) {
    if (['TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TR', 'SELECT', 'HEAD', 'SCRIPT', 'STYLE'].includes(parent.tagName) || parent.closest('table')) continue;
    const groups = new Map();
    for (const child of parent.children) {
      if (!visible(child) || text(child) === '') continue;
      const key = shape(child, 2);
      groups.set(key, [...(groups.get(key) ?? []), child]);
    }
    for (const items of groups.values()) {
      if (items.length < 3) continue;
      const selector = itemSelector(items[0]);
      const siblingsOfSelector = [...parent.children].filter((child) => child.matches(selector));
      const target = pathTo(parent) + ' > ' + selector;
      const fields = fieldsOf(items[0]).slice(0, 10);
      lists.push({
        target,
        count: siblingsOfSelector.length,
        fields: fields.map((field) => ({ target: field, column: columnOf(field) })),
        rows: siblingsOfSelector.map((item) => fields.map((field) => (field === ':scope' ? text(item) : [...item.querySelectorAll(field)].map(text).join(' ')))),
      });
    }
  }
  return { tables, lists };
})()`;

interface FoundTable {
  index: number;
  id: string;
  label: string;
  visible: boolean;
  header: string[];
  rows: string[][];
}
interface FoundList {
  target: string;
  count: number;
  fields: { column: string; target: string }[];
  rows: string[][];
}

/** One column name per field, told apart when two read the same ('precio', 'precio 2'). */
function uniqueColumns(fields: { column: string; target: string }[]): { column: string; target: string }[] {
  const used = new Map<string, number>();
  return fields.map((field) => {
    const base = field.column.trim() || 'Campo';
    const count = (used.get(base) ?? 0) + 1;
    used.set(base, count);
    return { ...field, column: count === 1 ? base : `${base} ${count}` };
  });
}

/** The candidates of an open page, each checked with page.locator() (a selector that finds nothing is left out). */
export async function findCandidates(page: Page): Promise<ScrapeCandidate[]> {
  const found = (await page.evaluate(FIND_IN_PAGE)) as { tables: FoundTable[]; lists: FoundList[] };
  const candidates: ScrapeCandidate[] = [];
  for (const table of found.tables) {
    if (!table.visible || table.rows.length === 0) continue;
    const byRole = table.label !== '' ? `internal:role=table[name=${JSON.stringify(table.label)}s]` : null;
    const byId = table.id !== '' ? `#${table.id.replace(/[^\w-]/g, (character) => `\\${character}`)}` : null;
    let target = `table >> nth=${table.index}`;
    for (const option of [byRole, byId]) {
      if (option !== null && (await page.locator(option).count().catch(() => 0)) === 1) {
        target = option;
        break;
      }
    }
    candidates.push({ kind: 'table', target, header: table.header, rows: table.rows.slice(0, PREVIEW_ROWS), total: table.rows.length });
  }
  for (const list of found.lists) {
    if ((await page.locator(list.target).count().catch(() => 0)) !== list.count) continue;
    const fields = uniqueColumns(list.fields);
    candidates.push({ kind: 'list', target: list.target, fields, header: fields.map((field) => field.column), rows: list.rows.slice(0, PREVIEW_ROWS), total: list.count });
  }
  // Biggest first: the table or list the user most likely wants.
  return candidates.sort((a, b) => (a.kind === b.kind ? b.total - a.total : a.kind === 'table' ? -1 : 1)).slice(0, MAX_CANDIDATES);
}

/** Opens the page headless (with the certificate for its https origin) and answers its candidates. */
export async function previewScrape(options: ScrapeOptions): Promise<ScrapeCandidate[]> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch(browserLaunchOptions(process.platform, options.chromiumPath, options.env));
  try {
    const origin = options.url.startsWith('https://') && URL.canParse(options.url) ? new URL(options.url).origin : null;
    const context = await browser.newContext({
      ignoreHTTPSErrors: options.ignoreHTTPSErrors === true,
      ...(options.certificate && origin !== null && { clientCertificates: [{ origin, pfx: options.certificate.pfx, passphrase: options.certificate.passphrase }] }),
    });
    options.certificate?.pfx.fill(0);
    const page = await context.newPage();
    await page.goto(options.url, { timeout: 60_000, waitUntil: 'load' });
    return await findCandidates(page);
  } finally {
    await browser.close().catch(() => undefined);
  }
}
