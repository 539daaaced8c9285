/**
 * Generated FIE files on disk for the decoder bench and the CLI tests (the text comes from
 * shared/fie/sample.ts), written without holding the file whole.
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { sampleFieChunks } from '#shared/fie/sample.ts';

/** Writes a generated file of `entries` entries (Latin-1) without holding it whole; returns its size in bytes. */
export async function writeSampleFie(path: string, entries: number): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  for (const chunk of sampleFieChunks(entries)) {
    const buffer = Buffer.from(chunk, 'latin1');
    bytes += buffer.length;
    if (!out.write(buffer)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}
