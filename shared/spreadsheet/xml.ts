import { SaxesParser } from 'saxes';

/**
 * Streaming XML with saxes, fed text as it arrives, nothing of the document held. Pure JS, so the
 * server (from Node streams) and the robots (from fflate's inflate) parse with the same handlers.
 * saxes expands only XML's own entities (an entity a DTD declares is an error), so a 'billion laughs'
 * cannot unfold. Element names come without their namespace prefix ('x:row' is 'row'), as SheetJS
 * reads them.
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

export const localName = (name: string): string => {
  const colon = name.indexOf(':');
  return colon === -1 ? name : name.slice(colon + 1);
};

export interface XmlFeed {
  /** The next piece of the document's text; throws what a handler threw, or saxes's first error. */
  write(text: string): void;
  /** The end of the document. */
  close(): void;
}

/**
 * A parser that calls `handlers` as text is written to it. After the first error nothing more reaches
 * the handlers, and the error is what write() or close() throws, even when a handler threw first (a
 * StopXml at </sheetData> must not hide a row that did not parse).
 */
export function xmlFeed(handlers: XmlHandlers): XmlFeed {
  const parser = new SaxesParser({ position: false });
  let failure: Error | null = null;
  parser.on('error', (error) => {
    failure ??= error;
  });
  if (handlers.open) {
    const open = handlers.open;
    parser.on('opentag', (tag) => {
      if (failure === null) open(localName(tag.name), tag.attributes as Record<string, string>, tag.isSelfClosing);
    });
  }
  if (handlers.text) {
    const text = handlers.text;
    const onText = (chunk: string) => {
      if (failure === null) text(chunk);
    };
    parser.on('text', onText);
    parser.on('cdata', onText);
  }
  if (handlers.close) {
    const close = handlers.close;
    parser.on('closetag', (tag) => {
      if (failure === null) close(localName(tag.name));
    });
  }
  const check = () => {
    if (failure) throw failure;
  };
  const guarded = (step: () => void) => {
    try {
      step();
    } catch (error) {
      check();
      throw error;
    }
    check();
  };
  return {
    write(text) {
      guarded(() => parser.write(text));
    },
    close() {
      guarded(() => parser.close());
    },
  };
}

/** XML's text as SheetJS reads cell text: '_x000D_' escapes decoded and CRLF as LF. */
export function decodeOoxmlText(text: string): string {
  const decoded = text.includes('_x') ? text.replace(/_x([\da-fA-F]{4})_/g, (_match, code: string) => String.fromCharCode(parseInt(code, 16))) : text;
  return decoded.includes('\r\n') ? decoded.replace(/\r\n/g, '\n') : decoded;
}
