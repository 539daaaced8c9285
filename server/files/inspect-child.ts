/**
 * The child process of one upload inspection (forked by inspector.ts with a heap limit and a time
 * limit): reads the stored file named in its argument, posts what it found or why it refuses it, and
 * exits. A zip bomb, a hang or a memory blow-up ends this process only, never the server's event loop
 * (a worker thread's heap limit is best effort, and its OOM can abort the whole server: nodejs/node#47224).
 * Bundled on its own as dist/server/inspect-child.js (scripts/build-server.ts).
 */
import { FileRefusal } from './errors.ts';
import { inspectStoredFile } from './inspection.ts';
import type { InspectionJob, InspectionMessage } from './inspector.ts';

const send = process.send?.bind(process);
if (!send) throw new Error('inspect-child se ejecuta solo como proceso hijo del servidor');

const post = (message: InspectionMessage) =>
  new Promise<void>((resolve) => {
    if (!process.connected) return resolve();
    send(message, undefined, {}, () => resolve());
  });

// The server went away: nobody is left to answer.
process.on('disconnect', () => process.exit(1));

const job = JSON.parse(process.argv[2] ?? '{}') as InspectionJob;
try {
  const inspection = await inspectStoredFile(job.path, job.name, job.type);
  await post({ type: 'inspected', inspection });
} catch (error) {
  if (error instanceof FileRefusal) await post({ type: 'refused', kind: error.kind, message: error.message });
  else await post({ type: 'refused', kind: 'unreadable', message: `No se ha podido leer el archivo (${error instanceof Error ? error.message : String(error)})` });
}
process.exit(0);
