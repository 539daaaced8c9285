import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { SqliteAdapter, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { renewImports, type ImportingRow } from './store.ts';

/** An import whose owner has not renewed its lease for this long is abandoned (PostgreSQL, another host). */
export const IMPORT_LEASE_MS = 30_000;
const HEARTBEAT_MS = 10_000;

/** Whether a process of this machine is running (EPERM: it is, someone else's). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** `<pid>:<start id>:<host>`: the host last, it may hold colons. */
function ownerOf(pid: number, startId: string, host: string): string {
  return `${pid}:${startId}:${host}`;
}

function parseOwner(owner: string): { pid: number; host: string } | null {
  const match = /^(\d+):[^:]+:(.*)$/.exec(owner);
  return match ? { pid: Number(match[1]), host: match[2] as string } : null;
}

/**
 * Which FIE imports this server process is writing, and whether another's is abandoned (issue 39, 6).
 * Each import holds a lease in fie_imports (owner, heartbeat renewed every 10 s while it runs). An import
 * is abandoned when:
 * - it has no lease (half made, or from before leases);
 * - it is this process's but no longer running here;
 * - the database is SQLite: one server process uses it, so any other owner was a process that stopped
 *   (a restart frees every import at once);
 * - its owner ran on this machine and its process is gone (PostgreSQL, a restarted server);
 * - its owner has not renewed the lease for IMPORT_LEASE_MS (PostgreSQL, another machine).
 */
export class ImportLeases {
  readonly owner = ownerOf(process.pid, randomUUID(), hostname());
  private readonly active = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => Date,
    /** One server process per database (SQLite). */
    private readonly singleProcess = db.getExecutor().adapter instanceof SqliteAdapter,
  ) {}

  isAbandoned(row: ImportingRow): boolean {
    if (row.owner === null || row.heartbeat_at === null) return true;
    if (row.owner === this.owner) return !this.active.has(row.id);
    if (this.singleProcess) return true;
    const owner = parseOwner(row.owner);
    if (owner && owner.host === hostname() && owner.pid !== process.pid && !processIsAlive(owner.pid)) return true;
    const renewed = Date.parse(row.heartbeat_at);
    return Number.isNaN(renewed) || renewed < this.now().getTime() - IMPORT_LEASE_MS;
  }

  /** This process starts writing `documentId` (before its lease is inserted). */
  begin(documentId: string): void {
    this.active.add(documentId);
    this.timer ??= setInterval(() => {
      renewImports(this.db, this.owner, [...this.active], this.now().toISOString()).catch(() => undefined);
    }, HEARTBEAT_MS).unref();
  }

  end(documentId: string): void {
    this.active.delete(documentId);
    if (this.active.size === 0) this.stop();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
