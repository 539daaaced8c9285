import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { SaxesParser } from 'saxes';
import { FileRefusal, unreadable } from './errors.ts';

/**
 * Streaming XML with saxes: events as the bytes arrive, nothing of the document held. saxes expands
 * only XML's own entities (an entity a DTD declares is an error), so a 'billion laughs' cannot unfold.
 * Element names come without their namespace prefix ('x:row' is 'row'), as SheetJS reads them.
 */
export interface XmlHandlers {
  open?(name: string, attributes: Readonly<Record<string, string>>, selfClosing: boolean): void;
  text?(text: string): void;
  close?(name: string): void;
}

/** Thrown by a handler to stop reading: the rest of the document is skipped, not an error. */
export class StopXml extends Error {
  constructor() {
    super('stop');
  }
}

const localName = (name: string) => {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
};

/** Reads the XML `source` (a decompressed zip entry, say) through `handlers`; `part` names it in errors. */
export async function readXml(source: Readable, handlers: XmlHandlers, part: string): Promise<void> {
  const parser = new SaxesParser({ position: false });
  let failure: Error | null = null;
  parser.on('error', (error) => {
    failure ??= error;
  });
  if (handlers.open) {
    const open = handlers.open;
    parser.on('opentag', (tag) => open(localName(tag.name), tag.attributes as Record<string, string>, tag.isSelfClosing));
  }
  if (handlers.text) {
    const text = handlers.text;
    parser.on('text', text);
    parser.on('cdata', text);
  }
  if (handlers.close) {
    const close = handlers.close;
    parser.on('closetag', (tag) => close(localName(tag.name)));
  }

  let decoder: StringDecoder | null = null;
  try {
    for await (const chunk of source) {
      const bytes = chunk as Buffer;
      if (decoder === null) {
        // UTF-16 parts carry a byte order mark; everything else here is UTF-8.
        const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe;
        decoder = new StringDecoder(utf16 ? 'utf16le' : 'utf8');
      }
      parser.write(decoder.write(bytes));
      if (failure) throw failure;
    }
    parser.write(decoder?.end() ?? '');
    parser.close();
    if (failure) throw failure;
  } catch (error) {
    source.destroy();
    if (error instanceof StopXml) return;
    if (error instanceof FileRefusal) throw error;
    throw unreadable(`La parte ${part} no es XML válido (${(error as Error).message.split('\n')[0]})`);
  }
}

/** XML's text as SheetJS reads cell text: '_x000D_' escapes decoded and CRLF as LF. */
export function decodeOoxmlText(text: string): string {
  const decoded = text.includes('_x') ? text.replace(/_x([\da-fA-F]{4})_/g, (_match, code: string) => String.fromCharCode(parseInt(code, 16))) : text;
  return decoded.includes('\r\n') ? decoded.replace(/\r\n/g, '\n') : decoded;
}
