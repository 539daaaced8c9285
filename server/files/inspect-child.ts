/**
 * The child process of one upload inspection (forked by inspector.ts with a heap limit and a time
 * limit): reads the stored file named in its argument, posts what it found or why it refuses it, and
 * exits. A zip bomb, a hang or a memory blow-up ends this process only, never the server's event loop
 * (a worker thread's heap limit is best effort, and its OOM can abort the whole server: nodejs/node#47224).
 * Bundled on its own as dist/server/inspect-child.js (scripts/build-server.ts).
 */
import { parentChannel } from '../child-channel.ts';
import { FileRefusal } from './errors.ts';
import { inspectStoredFile } from './inspection.ts';
import type { InspectionJob, InspectionMessage } from './inspector.ts';

const post = parentChannel<InspectionMessage>('inspect-child');


const job = JSON.parse(process.argv[2] ?? '{}') as InspectionJob;
try {
  const inspection = await inspectStoredFile(job.path, job.name, job.type);
  await post({ type: 'inspected', inspection });
} catch (error) {
  if (error instanceof FileRefusal) await post({ type: 'refused', kind: error.kind, message: error.message });
  else await post({ type: 'refused', kind: 'unreadable', message: `No se ha podido leer el archivo (${error instanceof Error ? error.message : String(error)})` });
}
process.exit(0);
