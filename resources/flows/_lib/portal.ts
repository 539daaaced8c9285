import type { Download, Locator } from 'playwright-core';

/**
 * Helpers for desktop robots that drive an administration's web portal: reading the flow folder's
 * settings.json (the portal's address and the CSS selectors of its pages, so that a stand-in and the
 * real portal differ only by data) and reading a download's bytes without touching the disk.
 */

export interface PortalSettings<Name extends string> {
  baseUrl: URL;
  selectors: Record<Name, string>;
  /** How long a page, an element or a download may take (settings' pageTimeoutSeconds; administrations' sites are slow). */
  pageTimeoutMs: number;
}

const DEFAULT_PAGE_TIMEOUT_SECONDS = 30;

/** The settings a robot needs, or a Spanish sentence naming what is missing or wrong in them. */
export function readPortalSettings<Name extends string>(
  settings: Readonly<Record<string, unknown>>,
  selectorNames: readonly Name[],
): { ok: true; value: PortalSettings<Name> } | { ok: false; problem: string } {
  const given = settings['baseUrl'];
  const baseUrl = typeof given === 'string' && URL.canParse(given) ? new URL(given) : null;
  if (baseUrl === null || (baseUrl.protocol !== 'https:' && baseUrl.protocol !== 'http:')) {
    return { ok: false, problem: 'La configuración del robot no tiene una dirección (baseUrl) válida del portal.' };
  }
  const listed = settings['selectors'];
  const selectors = typeof listed === 'object' && listed !== null ? (listed as Record<string, unknown>) : {};
  const missing = selectorNames.filter((name) => typeof selectors[name] !== 'string' || (selectors[name] as string).trim() === '');
  if (missing.length > 0) {
    return { ok: false, problem: `A la configuración del robot le faltan selectores del portal: ${missing.join(', ')}.` };
  }
  const timeout = settings['pageTimeoutSeconds'] ?? DEFAULT_PAGE_TIMEOUT_SECONDS;
  if (typeof timeout !== 'number' || !(timeout > 0)) {
    return { ok: false, problem: 'La espera máxima de la configuración del robot (pageTimeoutSeconds) debe ser un número de segundos mayor que 0.' };
  }
  return {
    ok: true,
    value: {
      baseUrl,
      selectors: Object.fromEntries(selectorNames.map((name) => [name, selectors[name] as string])) as Record<Name, string>,
      pageTimeoutMs: timeout * 1000,
    },
  };
}

/** A finished download's bytes, read from Playwright's stream (robots write no files themselves). */
export async function downloadBytes(download: Download): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of (await download.createReadStream()) as AsyncIterable<Uint8Array>) chunks.push(chunk);
  const bytes = new Uint8Array(chunks.reduce((size, chunk) => size + chunk.byteLength, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

const PDF_HEADER = [0x25, 0x50, 0x44, 0x46, 0x2d]; // '%PDF-'

/** Whether the bytes are a PDF (its header), so an HTML error page saved as .pdf is caught. */
export function isPdf(bytes: Uint8Array): boolean {
  return PDF_HEADER.every((byte, index) => bytes[index] === byte);
}

/** A cell's text, trimmed; '' when the element is not there. */
export async function textOf(locator: Locator): Promise<string> {
  return ((await locator.count()) > 0 ? ((await locator.first().textContent()) ?? '') : '').trim();
}
