import { open } from 'node:fs/promises';

/** The first `bytes` bytes of a stored file (fewer when it is shorter): what judging it by content reads. */
export async function readStart(path: string, bytes: number): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}
