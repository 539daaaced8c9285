import { EXPIRING_SOON_DAYS, NOTIFICATION_SORT_FIELDS, NOTIFICATION_VIEWS, NOTIFICATIONS_DEFAULT_PAGE_SIZE, NOTIFICATIONS_PAGE_SIZES } from '#shared/api/notifications.ts';
import type { NotificationSortField, NotificationView, NotificationsQuery } from '#shared/api/notifications.ts';
import { daysBetween, formatDayMonthYear } from '#shared/fie/dates.ts';
import { formatMadridDate, madridDayKey } from '#shared/time/madrid.ts';
import { isBadDayRange, type DayRange } from '../../ui/dayRange.ts';

/** Spec §9: searches and filters wait this long for the typing to pause. */
export const NOTIFICATIONS_DEBOUNCE_MS = 400;

/** What the list shows, as the address holds it (so a view can be shared and reloaded). */
export interface NotificationsViewState {
  sortby: NotificationSortField;
  sortdir: 'asc' | 'desc';
  search: string;
  disposicion: DayRange;
  caducidad: DayRange;
  view: NotificationView;
  /** One-based. */
  page: number;
  pageSize: number;
}

const day = /^\d{4}-\d{2}-\d{2}$/;
const emptyRange: DayRange = { from: '', to: '' };

function readRange(value: string | null): DayRange {
  if (!value) return emptyRange;
  const [from = '', to = ''] = value.split('..');
  return { from: day.test(from) ? from : '', to: day.test(to) ? to : '' };
}

const isOneOf = <T extends string>(choices: readonly T[], value: string | null): value is T => value !== null && (choices as readonly string[]).includes(value);

export function readView(params: URLSearchParams): NotificationsViewState {
  const sortby = params.get('sortby');
  const sortdir = params.get('sortdir');
  const view = params.get('view');
  const page = Number(params.get('page'));
  const pageSize = Number(params.get('pageSize'));
  return {
    sortby: isOneOf(NOTIFICATION_SORT_FIELDS, sortby) ? sortby : 'titular',
    sortdir: sortdir === 'asc' ? 'asc' : 'desc',
    search: params.get('search') ?? '',
    disposicion: readRange(params.get('disposicion')),
    caducidad: readRange(params.get('caducidad')),
    view: isOneOf(NOTIFICATION_VIEWS, view) ? view : 'pendientes',
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: (NOTIFICATIONS_PAGE_SIZES as readonly number[]).includes(pageSize) ? pageSize : NOTIFICATIONS_DEFAULT_PAGE_SIZE,
  };
}

const rangeText = (range: DayRange) => (range.from === '' && range.to === '' ? '' : `${range.from}..${range.to}`);

/** The address's query: only what differs from the defaults, so a plain /notifications stays plain. */
export function writeView(state: NotificationsViewState): URLSearchParams {
  const params = new URLSearchParams();
  if (state.sortby !== 'titular' || state.sortdir !== 'desc') {
    params.set('sortby', state.sortby);
    params.set('sortdir', state.sortdir);
  }
  if (state.search.trim() !== '') params.set('search', state.search);
  for (const key of ['disposicion', 'caducidad'] as const) {
    const text = rangeText(state[key]);
    if (text !== '') params.set(key, text);
  }
  if (state.view !== 'pendientes') params.set('view', state.view);
  if (state.page !== 1) params.set('page', String(state.page));
  if (state.pageSize !== NOTIFICATIONS_DEFAULT_PAGE_SIZE) params.set('pageSize', String(state.pageSize));
  return params;
}

/** The server's query for the view; a range the user is still typing backwards is left out. */
export function toQuery(state: NotificationsViewState): NotificationsQuery {
  const query: NotificationsQuery = { sortby: state.sortby, sortdir: state.sortdir, view: state.view, page: state.page, pageSize: state.pageSize };
  if (state.search.trim() !== '') query.search = state.search.trim();
  if (rangeText(state.disposicion) !== '' && !isBadDayRange(state.disposicion)) query.disposicion = rangeText(state.disposicion);
  if (rangeText(state.caducidad) !== '' && !isBadDayRange(state.caducidad)) query.caducidad = rangeText(state.caducidad);
  return query;
}

/** Spec §4: the sorted column toggles its direction; a new column starts descending. */
export function nextSort(state: Pick<NotificationsViewState, 'sortby' | 'sortdir'>, column: NotificationSortField): Pick<NotificationsViewState, 'sortby' | 'sortdir'> {
  if (state.sortby === column) return { sortby: column, sortdir: state.sortdir === 'desc' ? 'asc' : 'desc' };
  return { sortby: column, sortdir: 'desc' };
}

export const hasFilters = (state: NotificationsViewState) =>
  state.search.trim() !== '' || rangeText(state.disposicion) !== '' || rangeText(state.caducidad) !== '';

/** 'dd/mm/yyyy' of an ISO instant, in Madrid. */
export const formatDay = (iso: string) => formatMadridDate(new Date(iso));
/** 'yyyy-mm-dd' as 'dd/mm/yyyy'; an open end of a range as '…'. */
export const formatDayKey = (key: string) => (key === '' ? '…' : formatDayMonthYear(key));

/** Whole Madrid days from today to the caducidad's day: 0 today, negative once past. */
export function daysLeft(caducidad: string, now: Date = new Date()): number {
  return daysBetween(madridDayKey(now), madridDayKey(new Date(caducidad)));
}

/** The colour that goes with the days-left text (never alone). */
export function deadlineTone(days: number): 'danger' | 'warning' | 'notice' {
  if (days <= 0) return 'danger';
  if (days <= EXPIRING_SOON_DAYS) return 'warning';
  return 'notice';
}
