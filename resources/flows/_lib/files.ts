import type { RobotFile } from '#shared/flows/robot.ts';

/**
 * Uploads read without holding them: the runtime's stream when it gives one (the server's run process
 * reads stored uploads from disk), else the bytes it already has as one chunk (tests, the desktop).
 */

/** The file's bytes in chunks, from the first byte. */
export function fileChunks(file: RobotFile): AsyncIterable<Uint8Array> | Iterable<Uint8Array> {
  return file.stream?.() ?? [file.data];
}

/** The file's length in bytes; reads `data` only when the runtime gave no size. */
export function fileSize(file: RobotFile): number {
  return file.size ?? file.data.length;
}

/** The whole file as one array: for the small files a robot must hold anyway (a spreadsheet to parse). */
export async function fileBytes(file: RobotFile): Promise<Uint8Array> {
  if (file.stream === undefined) return file.data;
  return concatChunks(await collect(fileChunks(file)));
}

async function collect(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<Uint8Array[]> {
  const all: Uint8Array[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
}

export function concatChunks(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1 && chunks[0] !== undefined) return chunks[0];
  const joined = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    joined.set(chunk, at);
    at += chunk.length;
  }
  return joined;
}

/**
 * Whether two uploads hold the same bytes (the same file picked twice), without holding either: sizes
 * first (free, and different for almost every pair), then both read side by side, chunk against chunk,
 * stopping at the first difference. A streaming hash would need every file read once more before it is
 * decoded (its rows cannot be taken back once written); this reads only pairs of equal size, and a
 * repeated file is read twice (once here, and not decoded).
 */
export async function sameContent(a: RobotFile, b: RobotFile): Promise<boolean> {
  if (fileSize(a) !== fileSize(b)) return false;
  if (a.stream === undefined && b.stream === undefined) return sameBytes(a.data, b.data);
  const left = chunkReader(fileChunks(a));
  const right = chunkReader(fileChunks(b));
  try {
    for (;;) {
      const [x, y] = await Promise.all([left.take(), right.take()]);
      if (x === null || y === null) return x === null && y === null;
      const length = Math.min(x.length, y.length);
      if (!sameBytes(x.subarray(0, length), y.subarray(0, length))) return false;
      left.giveBack(x.subarray(length));
      right.giveBack(y.subarray(length));
    }
  } finally {
    await Promise.all([left.close(), right.close()]);
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/** Pulls chunks one at a time; what was not used of the last one is given back and taken first next time. */
function chunkReader(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) {
  const iterator = Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : chunks[Symbol.iterator]();
  let rest: Uint8Array | null = null;
  let done = false;
  return {
    async take(): Promise<Uint8Array | null> {
      if (rest !== null) {
        const chunk = rest;
        rest = null;
        return chunk;
      }
      while (!done) {
        const next = await iterator.next();
        if (next.done === true) done = true;
        else if (next.value.length > 0) return next.value;
      }
      return null;
    },
    giveBack(chunk: Uint8Array): void {
      if (chunk.length > 0) rest = chunk;
    },
    /** Closes the source (a file read stream) when it was left before its end. */
    async close(): Promise<void> {
      if (!done) {
        done = true;
        await iterator.return?.();
      }
    },
  };
}
