/**
 * The altas' robot runs as both sides read them (issue 44, 3 and 5): the flows that file in RED and sync
 * with A3 (resources/flows), the hidden inputs the altas screen launches them with, and the summary keys
 * main/altas/local-processes.ts writes and the screen reads back to say how the run went.
 */
export const ALTAS_RED_FLOW_ID = 'altas-automaticas-red';
export const ALTAS_A3_FLOW_ID = 'sincronizar-altas-a3';

/** Hidden inputs: the chosen altas (ids joined by ','; none: every pending one) and RED's channel. */
export const ALTAS_RUN_INPUTS = { ids: 'altas', channel: 'canal' } as const;
export const ALTAS_RED_CHANNELS = ['red-online', 'afi'] as const;
export type AltasRedChannel = (typeof ALTAS_RED_CHANNELS)[number];

/** Summary keys of an altas run (the run history shows them as they are). */
export const ALTAS_RUN_SUMMARY = {
  registered: 'registradas',
  synced: 'sincronizadas',
  failed: 'errores',
  afiFile: 'fichero AFI',
  firstError: 'primer error',
} as const;

const ID = /^[A-Za-z0-9-]{1,64}$/;

/** The ids of the hidden 'altas' input, in order, without repeats or anything that is no id. */
export function altaIdsOf(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  return [...new Set(value.split(',').map((id) => id.trim()).filter((id) => ID.test(id)))];
}

/** How an altas run went, read from its summary (null when it has none: an older or failed run). */
export function altasRunCounts(summary: Readonly<Record<string, unknown>> | undefined, done: 'registered' | 'synced'): { done: number; failed: number; afiFile: string | null; firstError: string | null } | null {
  if (!summary) return null;
  const count = summary[ALTAS_RUN_SUMMARY[done]];
  const failed = summary[ALTAS_RUN_SUMMARY.failed];
  if (typeof count !== 'number' || typeof failed !== 'number') return null;
  const afiFile = summary[ALTAS_RUN_SUMMARY.afiFile];
  const firstError = summary[ALTAS_RUN_SUMMARY.firstError];
  return { done: count, failed, afiFile: typeof afiFile === 'string' ? afiFile : null, firstError: typeof firstError === 'string' ? firstError : null };
}
