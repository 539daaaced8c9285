import { mkdir } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';

export interface RotatingLog {
  stream: { write(line: string): void };
  /** Flushes what is buffered and closes the file (call after app.close, before exiting). */
  close: () => Promise<void>;
}

/**
 * The server log as size-rotated files (pino-roll: pino's own rotating file stream): `server.log`
 * becomes server.1.log, server.2.log... and only the newest `keep` old files stay, so the log's disk
 * use is bounded by about (keep + 1) × maxSize.
 */
export async function openRotatingLog(file: string, { maxSize = '10m', keep = 5 }: { maxSize?: string; keep?: number } = {}): Promise<RotatingLog> {
  const extension = extname(file);
  // Made here, not by pino-roll's `mkdir`: its file opens asynchronously, and the `current.log` symlink
  // is made at once, so on a first start the link could race the folder (ENOENT, seen in CI).
  await mkdir(dirname(file), { recursive: true });
  // Loaded here, not at start: pino-roll loads all of date-fns (~300 files, 0.1-0.4 s), and only a server with LOG_FILE uses it.
  const { default: pinoRoll } = await import('pino-roll');
  const stream = await pinoRoll({
    file: join(dirname(file), basename(file, extension)),
    extension: extension || '.log',
    size: maxSize,
    limit: { count: keep },
    // A stable name (`current.log` beside the numbered files) to tail.
    symlink: true,
  });
  return {
    stream,
    close: () =>
      new Promise((resolve, reject) => {
        stream.once('close', () => resolve());
        stream.once('error', reject);
        stream.end();
      }),
  };
}
