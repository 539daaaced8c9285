import { A3_SYNC_STATES, FIE_ENTRY_TYPES } from '#shared/api/fie.ts';
import type { A3SyncState, FieListQuery } from '#shared/api/fie.ts';
import { isBadDayRange } from '../../ui/dayRange.ts';

export type FieEntryType = (typeof FIE_ENTRY_TYPES)[number];
export type FieTab = 'list' | 'reconciliation';

/** The screen's filters as the address holds them (?q=&tipo=&desde=&hasta=&a3=&vista=), so a view can be shared. */
export interface FieView {
  q: string;
  types: FieEntryType[];
  from: string;
  to: string;
  a3: A3SyncState | '';
  tab: FieTab;
}

export const URL_KEYS = { q: 'q', types: 'tipo', from: 'desde', to: 'hasta', a3: 'a3', tab: 'vista' } as const satisfies Record<keyof FieView, string>;
const RECONCILIATION_TAB = 'conciliacion';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

const isEntryType = (value: string): value is FieEntryType => (FIE_ENTRY_TYPES as readonly string[]).includes(value);
const isA3State = (value: string): value is A3SyncState => (A3_SYNC_STATES as readonly string[]).includes(value);

/** What the address says, with anything malformed dropped (a hand-edited link never reaches the server). */
export function readView(params: URLSearchParams): FieView {
  const day = (key: string) => {
    const value = params.get(key) ?? '';
    return DAY.test(value) ? value : '';
  };
  const a3 = params.get(URL_KEYS.a3) ?? '';
  const chosen = new Set((params.get(URL_KEYS.types) ?? '').split(',').filter(isEntryType));
  return {
    q: params.get(URL_KEYS.q) ?? '',
    // The contract's order, whatever order the link has: one query, one cache entry.
    types: FIE_ENTRY_TYPES.filter((type) => chosen.has(type)),
    from: day(URL_KEYS.from),
    to: day(URL_KEYS.to),
    a3: isA3State(a3) ? a3 : '',
    tab: params.get(URL_KEYS.tab) === RECONCILIATION_TAB ? 'reconciliation' : 'list',
  };
}

/** The address after one change of the view (other parameters kept). */
export function writeView(current: URLSearchParams, change: Partial<FieView>): URLSearchParams {
  const next = new URLSearchParams(current);
  const set = (key: string, value: string) => (value === '' ? next.delete(key) : next.set(key, value));
  if (change.q !== undefined) set(URL_KEYS.q, change.q.trim() === '' ? '' : change.q);
  if (change.types !== undefined) set(URL_KEYS.types, FIE_ENTRY_TYPES.filter((type) => change.types?.includes(type)).join(','));
  if (change.from !== undefined) set(URL_KEYS.from, change.from);
  if (change.to !== undefined) set(URL_KEYS.to, change.to);
  if (change.a3 !== undefined) set(URL_KEYS.a3, change.a3);
  if (change.tab !== undefined) set(URL_KEYS.tab, change.tab === 'reconciliation' ? RECONCILIATION_TAB : '');
  return next;
}

/** 'Hasta' before 'Desde': said on screen, and 'Hasta' left out of the query. */

export const hasFilters = (view: FieView) => view.q.trim() !== '' || view.types.length > 0 || view.from !== '' || view.to !== '' || view.a3 !== '';

/** GET fie's query for a view: only what is set. */
export function viewQuery(view: FieView): FieListQuery {
  const q = view.q.trim();
  return {
    ...(q !== '' && { q }),
    ...(view.types.length > 0 && { type: view.types.join(',') }),
    ...(view.from !== '' && { from: view.from }),
    ...(view.to !== '' && !isBadDayRange(view) && { to: view.to }),
    ...(view.a3 !== '' && { a3: view.a3 }),
  };
}
