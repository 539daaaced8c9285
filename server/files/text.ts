import { createReadStream } from 'node:fs';
import { StringDecoder } from 'node:string_decoder';
import { wrongType } from './errors.ts';

/**
 * Text files (.csv, .txt, FIE): judged by their bytes and decoded the way the robots decode them
 * (resources/flows/_lib/text.ts decodeText): UTF-8 when the whole file is valid UTF-8 (a BOM is
 * dropped), Latin-1 otherwise. Read in chunks, never whole.
 */

export type TextEncoding = 'utf8' | 'latin1';

/** Control characters other than tab, line feed, form feed and carriage return (DEL included). */
function isControl(byte: number): boolean {
  return (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0c && byte !== 0x0d) || byte === 0x7f;
}

/** More control characters than this share of the bytes (and more than a handful) is not text. */
const MAX_CONTROL_SHARE = 0.01;
const CONTROL_ALLOWANCE = 8;

export interface TextVerdict {
  text: boolean;
  /** Why not, in Spanish. */
  reason?: string;
}

/** Whether these bytes read as text: no NUL byte, few control characters. */
export function judgeTextBytes(bytes: Uint8Array, controls = 0): TextVerdict & { controls: number } {
  let count = controls;
  for (const byte of bytes) {
    if (byte === 0) return { text: false, reason: 'contiene bytes nulos, como un archivo binario', controls: count };
    if (isControl(byte)) count += 1;
  }
  return { text: true, controls: count };
}

function tooManyControls(controls: number, size: number): boolean {
  return controls > CONTROL_ALLOWANCE && controls > size * MAX_CONTROL_SHARE;
}

/**
 * One pass over the file: refuses (type) what is not text, and tells its encoding.
 * `what` names the claimed type in the message ('un CSV', 'un archivo de texto').
 */
export async function checkTextFile(path: string, what: string): Promise<TextEncoding> {
  const utf8 = new TextDecoder('utf-8', { fatal: true });
  let validUtf8 = true;
  let controls = 0;
  let size = 0;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    const bytes = chunk as Buffer;
    const verdict = judgeTextBytes(bytes, controls);
    if (!verdict.text) throw wrongType(`No es ${what}: ${verdict.reason}`);
    controls = verdict.controls;
    size += bytes.length;
    if (validUtf8) {
      try {
        utf8.decode(bytes, { stream: true });
      } catch {
        validUtf8 = false;
      }
    }
  }
  if (validUtf8) {
    try {
      utf8.decode();
    } catch {
      validUtf8 = false;
    }
  }
  if (tooManyControls(controls, size)) throw wrongType(`No es ${what}: tiene demasiados caracteres de control para ser texto`);
  return validUtf8 ? 'utf8' : 'latin1';
}

/** The file's text in chunks, decoded as the robots do (a UTF-8 BOM dropped). */
export async function* readTextChunks(path: string, encoding: TextEncoding): AsyncGenerator<string> {
  const decoder = new StringDecoder(encoding);
  let first = true;
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) {
    let text = decoder.write(chunk as Buffer);
    if (first && text !== '') {
      first = false;
      if (encoding === 'utf8') text = text.replace(/^\uFEFF/, '');
    }
    if (text !== '') yield text;
  }
  const rest = decoder.end();
  if (rest !== '') yield first && encoding === 'utf8' ? rest.replace(/^\uFEFF/, '') : rest;
}
