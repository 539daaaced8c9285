export const MAX_FILENAME_LENGTH = 255;

const FORBIDDEN = /[<>:"/\\|?*]/g;
/**
 * C0 and C1 control characters (NUL, tab, line breaks, ESC…, DEL) and the bidirectional controls
 * (LRE/RLE/PDF/LRO/RLO U+202A–U+202E, the isolates U+2066–U+2069, LRM/RLM U+200E/U+200F, ALM U+061C):
 * an RLO makes 'factura\u202Efdp.exe' show as 'facturaexe.pdf'.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /[\u0000-\u001F\u007F-\u009F\u200E\u200F\u202A-\u202E\u2066-\u2069\u061C]/g;
const TRAILING_DOTS_AND_SPACES = /[. ]+$/;

/** Cuts to a length without leaving half of a surrogate pair at the end. */
function cut(text: string, length: number): string {
  if (text.length <= length) return text;
  const sliced = text.slice(0, length);
  return /[\uD800-\uDBFF]$/.test(sliced) ? sliced.slice(0, -1) : sliced;
}

/**
 * Spec §5/§9 filename normalisation: leading whitespace, the characters < > : " / \ | ? *, control
 * characters and bidirectional controls (issue 18), and trailing dots or spaces are removed, and the
 * name is at most 255 characters. A long name keeps its extension (up to 20 characters) and loses the
 * end of its base name. Idempotent.
 */
export function normalizeFilename(name: string): string {
  const cleaned = name.replace(FORBIDDEN, '').replace(CONTROLS, '').replace(/^\s+/, '').replace(TRAILING_DOTS_AND_SPACES, '');
  if (cleaned.length <= MAX_FILENAME_LENGTH) return cleaned;

  const dot = cleaned.lastIndexOf('.');
  const extension = dot > 0 && cleaned.length - dot <= 21 ? cleaned.slice(dot) : '';
  const base = cut(cleaned.slice(0, cleaned.length - extension.length), MAX_FILENAME_LENGTH - extension.length);
  const shortened = base.replace(TRAILING_DOTS_AND_SPACES, '') + extension;
  // If the base vanished (it was all dots or spaces at the cut), fall back to a plain cut.
  return (shortened === extension ? cut(cleaned, MAX_FILENAME_LENGTH) : shortened).replace(TRAILING_DOTS_AND_SPACES, '');
}
