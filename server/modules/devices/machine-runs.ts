import type { Kysely } from 'kysely';
import { DEVICE_ONLINE_WINDOW_MS, MACHINE_REQUIRED_MESSAGE } from '#shared/api/devices.ts';
import type { Database } from '../../db/schema.ts';
import { HttpError, validationError } from '../../http/errors.ts';
import { machineNotFound, visibleMachines, type Member } from '../machines/access.ts';

/**
 * Runs that belong to a machine rather than to the server (desktop flows): which machine a launch
 * goes to, how a machine's lease is named, and whether a machine is online.
 */

export const SERVER_FLOW_MACHINE_MESSAGE = 'Este robot se ejecuta en nuestros servidores: no elijas un dispositivo';
export const MACHINE_GONE_MESSAGE = 'El dispositivo de esta ejecución se ha eliminado antes de empezar. No se ha cobrado.';

/** The machine a desktop flow's launch runs on, or null for a server flow. */
export interface MachineTarget {
  id: string;
  savedAs: string;
}

/**
 * A desktop flow needs a machine the member sees (their own or one shared with the firm; any other
 * answers 404 as if it did not exist); a server flow takes none.
 */
export async function machineTarget(db: Kysely<Database>, member: Member, runsOn: 'server' | 'desktop', machineId: string | undefined): Promise<MachineTarget | null> {
  if (runsOn === 'server') {
    if (machineId !== undefined) throw validationError([{ path: 'machineId', message: SERVER_FLOW_MACHINE_MESSAGE }]);
    return null;
  }
  if (machineId === undefined) {
    throw new HttpError(400, 'MACHINE_REQUIRED', MACHINE_REQUIRED_MESSAGE, { issues: [{ path: 'machineId', message: MACHINE_REQUIRED_MESSAGE }] });
  }
  const machine = await visibleMachines(db, member).where('m.id', '=', machineId).executeTakeFirst();
  if (!machine) throw machineNotFound();
  return { id: machine.id, savedAs: machine.saved_as };
}

const MACHINE_LEASE_PREFIX = 'machine:';

/** flow_runs.lease_owner of a run a machine holds (a server process holds its runs under its own id). */
export function machineLeaseOwner(machineId: string): string {
  return `${MACHINE_LEASE_PREFIX}${machineId}`;
}

export function isMachineLease(leaseOwner: string | null): boolean {
  return leaseOwner?.startsWith(MACHINE_LEASE_PREFIX) === true;
}

/** A machine whose desktop called within DEVICE_ONLINE_WINDOW_MS. */
export function isOnline(lastSeenAt: string | null, now: Date): boolean {
  return lastSeenAt !== null && now.getTime() - new Date(lastSeenAt).getTime() <= DEVICE_ONLINE_WINDOW_MS;
}

/** flow_runs.output_file_names (a JSON array of names), or none. */
export function parseOutputFileNames(json: string | null): string[] {
  if (json === null) return [];
  try {
    const names: unknown = JSON.parse(json);
    return Array.isArray(names) ? names.filter((name): name is string => typeof name === 'string') : [];
  } catch {
    return [];
  }
}
