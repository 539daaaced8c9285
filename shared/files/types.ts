/**
 * Spec §5: the file types uploads accept, by extension, with their usual MIME types. The server judges
 * each upload by its content too (issue 18): a name only says what the file must turn out to be.
 * 'fie' is SILTRA's FIE text, accepted as .fie, as .txt and under a name without extension.
 */
export const ALLOWED_FILE_TYPES: Readonly<Record<string, readonly string[]>> = {
  txt: ['text/plain'],
  msj: ['application/octet-stream'],
  doc: ['application/msword'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  xls: ['application/vnd.ms-excel'],
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ppt: ['application/vnd.ms-powerpoint'],
  pptx: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  odt: ['application/vnd.oasis.opendocument.text'],
  ods: ['application/vnd.oasis.opendocument.spreadsheet'],
  odp: ['application/vnd.oasis.opendocument.presentation'],
  pdf: ['application/pdf'],
  rtf: ['application/rtf', 'text/rtf'],
  csv: ['text/csv'],
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  png: ['image/png'],
  gif: ['image/gif'],
  bmp: ['image/bmp'],
  webp: ['image/webp'],
  svg: ['image/svg+xml'],
  tiff: ['image/tiff'],
  tif: ['image/tiff'],
  fie: ['text/plain'],
};

export const ALLOWED_EXTENSIONS = Object.keys(ALLOWED_FILE_TYPES);

/** The accept attribute for a file input that takes every allowed type. */
export const DEFAULT_ACCEPT = ALLOWED_EXTENSIONS.map((extension) => `.${extension}`).join(',');

export interface PickedFile {
  name: string;
  /** MIME type as the browser reports it; may be empty. */
  type?: string;
}

export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * The type a name claims: its extension when that is an allowed type, 'fie' for a name without one
 * (SILTRA saves FIE files with no extension), null otherwise. The server then checks the content.
 */
export function claimedFileType(name: string): string | null {
  const extension = fileExtension(name);
  if (extension === '') return 'fie';
  return ALLOWED_EXTENSIONS.includes(extension) ? extension : null;
}

/** The accepted types for a message: '.txt, .msj, … .fie (o sin extensión)'. */
export function acceptedTypesText(): string {
  return `${ALLOWED_EXTENSIONS.map((extension) => `.${extension}`).join(', ')} (o sin extensión, un FIE)`;
}

/** Whether one accept token ('.pdf', 'image/*', 'application/pdf') takes the file, as browsers do. */
function acceptTokenMatches(token: string, file: PickedFile): boolean {
  const mime = (file.type ?? '').toLowerCase();
  const type = claimedFileType(file.name) ?? '';
  // '.fie' takes FIE files under any of their names: .fie and without extension.
  if (token.startsWith('.')) return type === token.slice(1);
  if (token.endsWith('/*')) {
    const group = token.slice(0, -1);
    return mime.startsWith(group) || (ALLOWED_FILE_TYPES[type] ?? []).some((known) => known.startsWith(group));
  }
  return mime === token || (ALLOWED_FILE_TYPES[type] ?? []).includes(token);
}

/**
 * A file is accepted when its name claims an allowed type (claimedFileType) and, when an accept list
 * is given (comma separated, as in the input attribute), one of its tokens takes it too.
 */
export function isAcceptedFile(file: PickedFile, accept?: string): boolean {
  if (claimedFileType(file.name) === null) return false;
  const tokens = (accept ?? '').split(',').map((token) => token.trim().toLowerCase()).filter((token) => token !== '');
  return tokens.length === 0 || tokens.some((token) => acceptTokenMatches(token, file));
}

export function filterAcceptedFiles<T extends PickedFile>(files: readonly T[], accept?: string): T[] {
  return files.filter((file) => isAcceptedFile(file, accept));
}
