import { z } from 'zod/mini';
import { fiePaths } from '#shared/api/fie.ts';
import { a3SyncRecordWithEntrySchema } from '#shared/bridge/contract.ts';
import type { BridgeResult } from '#shared/bridge/contract.ts';
import { SILTRA_NO_FIE_TITLE, processingToast, siltraNoResultsMessage } from '#shared/fie/messages.ts';
import type { ToastKind } from '../../app/toasts.ts';
import type { BridgeClient } from '../../bridge/client.ts';
import { fie as text } from '../../i18n/es-fie.ts';
import { FieTransferError, postJson } from './fieTransfer.ts';

/** The desktop process that carries FIE entries into A3 (the autopilot names it the same). */
export const FIE_A3_FLOW_ID = 'sync-fie-a3';

const a3RecordsResponseSchema = z.object({ records: z.array(a3SyncRecordWithEntrySchema) });

/** A bridge or server refusal, as the Spanish message to show. */
export class FieDesktopError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FieDesktopError';
  }
}

/**
 * 'Sincronizar con A3': the server turns the selected entries into A3 sync records (POST a3Records),
 * and this PC's RunFieRobot imports them into A3 and reports each entry's result to the server.
 */
export async function syncWithA3(bridge: BridgeClient, entryIds: readonly string[], language = 'es'): Promise<BridgeResult<'RunFieRobot'>> {
  let response: Response;
  try {
    response = await postJson(fiePaths.a3Records, { entryIds }, language);
  } catch (error) {
    throw new FieDesktopError(error instanceof FieTransferError ? error.message : text.actions.syncFailed);
  }
  const parsed = response.ok ? a3RecordsResponseSchema.safeParse(await response.json().catch(() => null)) : null;
  if (!parsed?.success) throw new FieDesktopError(text.actions.syncFailed);
  const records = parsed.data.records;
  if (records.length === 0) throw new FieDesktopError(text.actions.syncFailed);
  const fieIds = [...new Set(records.map((record) => record.fieId).filter((fieId): fieId is string => fieId !== null))];
  const answer = await bridge.invoke('RunFieRobot', { flowId: FIE_A3_FLOW_ID, flowInputs: { 'input-dataTable': records }, fieIds });
  if (!answer.ok) throw new FieDesktopError(answer.error.message || text.actions.syncFailed);
  return answer.data;
}

/** A day, or a range when `to` is set and differs from it. */
export function siltraRange(from: string, to: string): [string] | [string, string] {
  return to === '' || to === from ? [from] : [from, to];
}

/**
 * What to say after GetFieFromSiltra: nothing found is the §8 toast (title and the day or range);
 * otherwise the same processing toast an upload gives.
 */
export function siltraOutcomeToast(result: BridgeResult<'GetFieFromSiltra'>): { kind: ToastKind; durationMs: number; lines: string[] } {
  const processing = processingToast(result.upload);
  if (result.found === 0) return { kind: 'info', durationMs: processing.durationMs, lines: [SILTRA_NO_FIE_TITLE, siltraNoResultsMessage(result.from, result.to)] };
  return processing;
}
