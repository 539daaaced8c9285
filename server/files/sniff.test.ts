import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileRefusal } from './errors.ts';
import { contentMatches, looksLikeSvg, sniffStart, SNIFF_BYTES, StartSniffer } from './sniff.ts';
import { buildZip } from './testing.ts';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sniff-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(SNIFF_BYTES, 0x90)]);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
// The 8-byte signature and an IHDR chunk of a 1x1 image.
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');

function xlsx(): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([['NIF'], ['1']]), 'Hoja1');
  return XLSX.write(book, { type: 'buffer', bookType: 'xlsx' }) as Buffer;
}

describe('sniffStart (the first bytes, while the upload streams)', () => {
  it('takes each format’s magic and refuses another’s', () => {
    expect(sniffStart('xlsx', xlsx())).toBeNull();
    expect(sniffStart('xlsx', ELF)).toBe('No es un libro de Excel (.xlsx): su contenido es de otro tipo');
    expect(sniffStart('xls', Buffer.from('d0cf11e0a1b11ae1', 'hex'))).toBeNull();
    expect(sniffStart('xls', Buffer.from([0x09, 0x08, 0x10, 0x00]))).toBeNull();
    expect(sniffStart('xls', xlsx())).not.toBeNull();
    expect(sniffStart('pdf', PDF)).toBeNull();
    expect(sniffStart('png', PDF)).toBe('No es un archivo .png: su contenido es de otro tipo');
    expect(sniffStart('jpeg', Buffer.from('ffd8ffe000104a464946', 'hex'))).toBeNull();
    expect(sniffStart('webp', Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBeNull();
    expect(sniffStart('tif', Buffer.from('4d4d002a', 'hex'))).toBeNull();
  });

  it('wants text for .csv, .txt, .msj, FIE and .svg: no NUL byte', () => {
    expect(sniffStart('csv', Buffer.from('NIF;Nombre\n'))).toBeNull();
    expect(sniffStart('fie', Buffer.from('ETIFIE40', 'latin1'))).toBeNull();
    expect(sniffStart('txt', ELF)).toBe('No es un archivo de texto (.txt): contiene bytes nulos, como un archivo binario');
  });
});

describe('StartSniffer', () => {
  it('refuses as soon as the first 4,100 bytes are in, and judges a shorter file at its end', () => {
    const sniffer = new StartSniffer('xlsx');
    sniffer.push(ELF.subarray(0, 100));
    expect(() => sniffer.push(ELF.subarray(100))).toThrow(FileRefusal);

    const short = new StartSniffer('pdf');
    short.push(PDF);
    expect(() => short.finish()).not.toThrow();
    const empty = new StartSniffer('xlsx');
    expect(() => empty.finish()).toThrow('No es un libro de Excel (.xlsx)');
  });

  it('keeps an SVG’s first 64 KB to find its <svg> element', () => {
    const sniffer = new StartSniffer('svg');
    sniffer.push(Buffer.from(`<?xml version="1.0"?>\n<!-- ${'x'.repeat(10_000)} -->\n<svg xmlns="http://www.w3.org/2000/svg"></svg>`));
    sniffer.finish();
    expect(looksLikeSvg(sniffer.start)).toBe(true);
    expect(looksLikeSvg(Buffer.from('<html><body>no</body></html>'))).toBe(false);
  });
});

describe('contentMatches (file-type on the stored file)', () => {
  it('agrees with the claimed type or says what the content is', async () => {
    const file = async (name: string, data: Buffer) => {
      const path = join(dir, name);
      await writeFile(path, data);
      return path;
    };
    expect(await contentMatches('pdf', await file('a.pdf', PDF))).toBeNull();
    expect(await contentMatches('png', await file('b.png', PNG))).toBeNull();
    expect(await contentMatches('png', await file('c.png', PDF))).toBe('No es un archivo .png: su contenido es de tipo .pdf');
    expect(await contentMatches('docx', await file('d.docx', xlsx()))).toBe('No es un archivo .docx: su contenido es de tipo .xlsx');
    const docx = await buildZip({
      '[Content_Types].xml': '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
      'word/document.xml': '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"/>',
    });
    expect(await contentMatches('docx', await file('e.docx', docx))).toBeNull();
    expect(await contentMatches('doc', await file('f.doc', ELF))).toBe('No es un archivo .doc: su contenido es de tipo .elf');
  });
});
