import { describe, expect, it } from 'vitest';
import synthetic from './fixtures/synthetic-fie4.txt?raw';
import { decodeFie } from './decode.ts';
import { encodeEntry, encodeHeader, encodeSegment, type FieRawValues } from './encode.ts';
import { FieTextStream, streamFieText, type FieStreamSummary } from './stream.ts';
import type { FieDiagnostic, FieDocument, FieEntry } from './types.ts';

/** mulberry32: reproducible chunk sizes. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function latin1(text: string): Uint8Array {
  const bytes = new Uint8Array(text.length);
  for (let index = 0; index < text.length; index += 1) bytes[index] = text.charCodeAt(index);
  return bytes;
}

/** Cut points: random sizes (many tiny, some large), plus a cut between the CR and the LF of some CRLFs. */
function cuts(length: number, seed: number, text?: string): number[] {
  const next = random(seed);
  const points = new Set<number>();
  for (let at = 0; at < length; ) {
    const size = next() < 0.3 ? 1 + Math.floor(next() * 7) : 1 + Math.floor(next() * 70_000);
    at += size;
    if (at < length) points.add(at);
  }
  if (text !== undefined) {
    for (let at = text.indexOf('\r\n'); at !== -1; at = text.indexOf('\r\n', at + 2)) if (next() < 0.01) points.add(at + 1);
  }
  return [...points].sort((a, b) => a - b);
}

function split<T extends string | Uint8Array>(input: T, points: readonly number[]): T[] {
  const chunks: T[] = [];
  let from = 0;
  for (const at of [...points, input.length]) {
    chunks.push((typeof input === 'string' ? input.slice(from, at) : input.subarray(from, at)) as T);
    from = at;
  }
  return chunks;
}

interface Streamed {
  summary: FieStreamSummary;
  entries: FieEntry[];
  diagnostics: FieDiagnostic[];
}

function streamChunks(chunks: ReadonlyArray<string | Uint8Array>): Streamed {
  const entries: FieEntry[] = [];
  const diagnostics: FieDiagnostic[] = [];
  const decoder = new FieTextStream({ entry: (entry) => void entries.push(entry), diagnostic: (diagnostic) => void diagnostics.push(diagnostic) });
  for (const chunk of chunks) decoder.write(chunk);
  return { summary: decoder.end(), entries, diagnostics };
}

/** The streamed document equals the in-memory one: entries compared one by one as JSON (order of keys included). */
function expectSameDocument(streamed: Streamed, document: FieDocument): void {
  const { summary } = streamed;
  expect({ format: summary.format, version: summary.version, ignored: summary.ignored, reason: summary.reason, registryDate: summary.registryDate }).toEqual({
    format: document.format,
    version: document.version,
    ignored: document.ignored,
    reason: document.reason,
    registryDate: document.registryDate,
  });
  expect(summary.entries).toBe(document.entries.length);
  expect(summary.diagnostics).toBe(document.diagnostics.length);
  expect(streamed.entries.length).toBe(document.entries.length);
  const different = streamed.entries.findIndex((entry, index) => JSON.stringify(entry) !== JSON.stringify(document.entries[index]));
  expect(different).toBe(-1);
  expect(streamed.diagnostics).toEqual(document.diagnostics);
}

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** A big file with everything the reader reports: unknown and repeated segments, bad values, long lines, lines after ETF. */
function generatedFile(entries: number): string {
  const lines = [encodeHeader('ETI', 'FIE4', '20250115')];
  for (let index = 0; index < entries; index += 1) {
    const day = 1 + (index % 28);
    const values: FieRawValues = {
      320: '0111',
      310: `${pad(1 + (index % 52), 2)}${pad(index, 9)}`,
      530: `EMPRESA  ${index % 1000}   SL`,
      610: `28${pad(index, 10)}`,
      650: '1',
      660: '724',
      670: `${pad(index, 8)}Z`.padStart(14, '0'),
      820: 'GARCÍA',
      830: 'MUÑOZ',
      840: `NOMBRE${index % 97}`,
      1020: index % 997 === 0 ? '20250231' : `202501${pad(day, 2)}`,
      1030: index % 7 === 0 ? 'S' : 'N',
      1060: pad(index % 40, 4),
      1090: String(1 + (index % 5)),
      1170: index % 11 === 0 ? 'S' : 'N',
    };
    if (index % 3 === 0) Object.assign(values, { 1150: `202502${pad(day, 2)}`, 1160: '01' });
    if (index % 4 === 0) Object.assign(values, { 1520: `202501${pad(day, 2)}`, 1530: '01' });
    lines.push(...encodeEntry(values));
    if (index % 500 === 0) lines.push('IT22025010501', '');
    if (index % 700 === 0) lines.push(encodeSegment('CIT', { 1520: '20250120', 1530: '02' }) ?? '');
    if (index % 900 === 0) lines.push(`${encodeSegment('DAF', { 910: '20200301', 920: '20201231' }) ?? ''}  SOBRA`);
  }
  lines.push(encodeHeader('ETF', 'FIE4', '20250115'), 'EMP0111', '');
  return lines.join('\r\n');
}

describe('FieTextStream: the same document as decodeFie, chunk by chunk', () => {
  it('on the synthetic FIE4, in chunks of every size from 1 to 40 characters, as bytes and as text', () => {
    const document = decodeFie(synthetic);
    for (let size = 1; size <= 40; size += 1) {
      const points = Array.from({ length: Math.floor((synthetic.length - 1) / size) }, (_, index) => (index + 1) * size);
      expectSameDocument(streamChunks(split(latin1(synthetic), points)), document);
      expectSameDocument(streamChunks(split(synthetic, points)), document);
    }
  });

  it('on odd files: a BOM, no trailer, CRLF cut, ignored headers, empty input', () => {
    const files = [
      `\uFEFF\n\n${synthetic}`,
      synthetic.replace(/ETF.*\r?\n?$/, ''),
      synthetic.replace(/\r?\n/g, '\r\n').replace(/\r\n$/, '\r'),
      synthetic.replace('ETIFIE40', 'ETIFIE20'),
      synthetic.replace('ETIFIE40', 'ETIAFI96'),
      'no es un FIE\n',
      '',
      '\r\n\r\n',
    ];
    for (const text of files) {
      const document = decodeFie(text, { format: 'text' });
      for (const seed of [1, 2, 3]) expectSameDocument(streamChunks(split(text, cuts(text.length, seed).map((at) => Math.min(at, text.length)))), document);
      expectSameDocument(streamChunks(split(text, Array.from({ length: text.length }, (_, index) => index).slice(1))), document);
    }
  });

  it('on text whose characters take two UTF-16 units, cut between them', () => {
    const text = synthetic.replace('EJEMPLO SINTETICO SL', 'EJEMPLO 😀 SINTÉTICO').replace('MARIA', 'MARÍA😀');
    const document = decodeFie(text);
    for (let at = 1; at < text.length; at += 1) {
      if (text.charCodeAt(at - 1) >= 0xd800 && text.charCodeAt(at - 1) <= 0xdbff) expectSameDocument(streamChunks(split(text, [at])), document);
    }
  });

  it('on a generated 50,000-entry file (Latin-1, CRLF) in random chunks that cut lines and CRLF pairs', () => {
    const text = generatedFile(50_000);
    const bytes = latin1(text);
    const document = decodeFie(bytes);
    expect(document.entries).toHaveLength(50_000);
    expect(new Set(document.diagnostics.map((diagnostic) => diagnostic.kind))).toEqual(new Set(['invalid-value', 'repeated-segment', 'long-line', 'after-trailer']));
    for (const seed of [19, 2025]) {
      const points = cuts(bytes.length, seed, text);
      expect(points.some((at) => text.charCodeAt(at - 1) === 0x0d && text.charCodeAt(at) === 0x0a)).toBe(true);
      expectSameDocument(streamChunks(split(bytes, points)), document);
    }
  }, 120_000);
});

describe('streamFieText: an async iterator of a document', () => {
  async function* chunksOf(parts: readonly string[], pulled: { count: number }) {
    for (const part of parts) {
      pulled.count += 1;
      yield latin1(part);
    }
  }

  it('gives the header first, then entries and diagnostics in file order, then the summary', async () => {
    const text = synthetic.replace('20250115', '20251315');
    const document = decodeFie(text);
    const items = [];
    for await (const item of streamFieText(chunksOf(split(text, cuts(text.length, 7)), { count: 0 }))) items.push(item);
    expect(items[0]).toEqual({ kind: 'header', header: { status: 'read', version: 'FIE4', registryDate: null } });
    expect(items.filter((item) => item.kind === 'entry').map((item) => item.entry)).toEqual(document.entries);
    expect(items.filter((item) => item.kind === 'diagnostic').map((item) => item.diagnostic)).toEqual(document.diagnostics);
    expect(items.at(-1)).toEqual({ kind: 'end', summary: { format: 'text', version: 'FIE4', ignored: false, registryDate: null, entries: 2, diagnostics: 1 } });
  });

  it('stops reading a file whose header makes it ignored', async () => {
    const pulled = { count: 0 };
    const items = [];
    for await (const item of streamFieText(chunksOf(['ETIAFI96 cabecera de otro fichero\n', 'EMP', '0111\n', 'TRA\n'], pulled))) items.push(item);
    expect(pulled.count).toBe(1);
    expect(items).toEqual([
      { kind: 'header', header: { status: 'ignored', reason: 'La cabecera ETI no indica la versión del FIE' } },
      { kind: 'end', summary: { format: 'text', version: null, ignored: true, reason: 'La cabecera ETI no indica la versión del FIE', registryDate: null, entries: 0, diagnostics: 0 } },
    ]);
  });
});
