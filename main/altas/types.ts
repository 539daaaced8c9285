import type { PendingSummary, RedAltaRecord, RedResult } from '#shared/api/altas.ts';
import type { BridgeResult } from '#shared/bridge/contract.ts';

/** A line of a registration run's log, as the robots' logs have it. */
export type AltasLog = (level: 'info' | 'warn' | 'error', text: string) => void;

/**
 * Registering altas in Sistema RED from this PC (main/altas/red/): RED Online's ATR01 with a client
 * certificate, or an AFI remittance written for SILTRA. It answers per record and never talks to our server.
 */
export interface RedRegistrar {
  /** Each record through ATR01 in turn; a fatal #DIL code fails that record only. */
  register(records: readonly RedAltaRecord[], certificate: string, options: { log: AltasLog; signal?: AbortSignal }): Promise<RedResult[]>;
  /** One .AFI remittance with every record, written into SILTRA's RED/VIPTC2/AFI. */
  writeAfi(records: readonly RedAltaRecord[], options: { log: AltasLog }): Promise<{ file: string; results: RedResult[] }>;
}

/** The altas work of this PC for the /altasybajas screen and the autopilot (main/altas/desktop.ts). */
export interface AltasDesktop {
  /** What the firm has left to register in RED and to sync with A3 (server, device token). */
  pending(): Promise<PendingSummary>;
  /** Records from the server -> RED (or AFI) -> each result reported to the server. */
  syncToRed(ids: readonly string[], certificate: string, options?: { channel?: 'red-online' | 'afi'; log?: AltasLog; signal?: AbortSignal }): Promise<BridgeResult<'SyncSubmissions'>>;
  /** Rows from the server -> A3's '202 – MA' import -> each result reported to the server. */
  syncToA3(ids: readonly string[], options?: { log?: AltasLog; signal?: AbortSignal }): Promise<BridgeResult<'SyncSubmissionsToA3'>>;
}
