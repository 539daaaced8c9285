import type { Handler } from './context.ts';

/** 'Sincronizar con A3': the selected registrations as one '202 – MA' import into A3's folder, A3's answer per row reported to the server. */
export const SyncSubmissionsToA3: Handler<'SyncSubmissionsToA3'> = async ({ submissionIds }, ctx) => ctx.altas.syncToA3(submissionIds);
