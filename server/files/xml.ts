import { StringDecoder } from 'node:string_decoder';
import type { Readable } from 'node:stream';
import { StopXml, xmlFeed, type XmlHandlers } from '#shared/spreadsheet/xml.ts';
import { FileRefusal, unreadable } from './errors.ts';

/** The parser and its handlers live in shared/spreadsheet/xml.ts (the robots stream the same XML); this feeds it a Node stream. */
export { decodeOoxmlText, StopXml, type XmlHandlers } from '#shared/spreadsheet/xml.ts';

/** Reads the XML `source` (a decompressed zip entry, say) through `handlers`; `part` names it in errors. */
export async function readXml(source: Readable, handlers: XmlHandlers, part: string): Promise<void> {
  const feed = xmlFeed(handlers);
  let decoder: StringDecoder | null = null;
  try {
    for await (const chunk of source) {
      const bytes = chunk as Buffer;
      if (decoder === null) {
        // UTF-16 parts carry a byte order mark; everything else here is UTF-8.
        const utf16 = bytes[0] === 0xff && bytes[1] === 0xfe;
        decoder = new StringDecoder(utf16 ? 'utf16le' : 'utf8');
      }
      feed.write(decoder.write(bytes));
    }
    feed.write(decoder?.end() ?? '');
    feed.close();
  } catch (error) {
    source.destroy();
    if (error instanceof StopXml) return;
    if (error instanceof FileRefusal) throw error;
    throw unreadable(`La parte ${part} no es XML válido (${(error as Error).message.split('\n')[0]})`);
  }
}
