import { useEffect, useId, useRef, useState } from 'react';
import { notifications as text } from '../../i18n/es-notifications.ts';
import { Button, IconClose } from '../../ui/index.ts';
import { Popover } from '../../ui/Popover.tsx';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { isBadDayRange, type DayRange } from '../../ui/dayRange.ts';
import { NOTIFICATIONS_DEBOUNCE_MS, formatDayKey, hasFilters } from './notificationsView.ts';
import type { NotificationsViewState } from './notificationsView.ts';

export interface NotificationsFiltersProps {
  view: NotificationsViewState;
  onChange: (change: Partial<NotificationsViewState>) => void;
}

/**
 * The search box (400 ms debounce, spec §9), the date-range popup and the active filters as removable
 * chips. The dates wait for the same pause, so typing a day sends one request.
 */
export function NotificationsFilters({ view, onChange }: NotificationsFiltersProps) {
  const chips: { key: string; label: string; clear: Partial<NotificationsViewState> }[] = [];
  if (view.search.trim() !== '') chips.push({ key: 'search', label: text.filters.searchChip(view.search.trim()), clear: { search: '' } });
  for (const key of ['disposicion', 'caducidad'] as const) {
    const range = view[key];
    if (range.from !== '' || range.to !== '')
      chips.push({ key, label: text.filters.rangeChip(text.filters[key], `${formatDayKey(range.from)} – ${formatDayKey(range.to)}`), clear: { [key]: { from: '', to: '' } } });
  }
  return (
    <div className="notifications-filters" role="search" aria-label={text.filters.search}>
      <div className="notifications-filters__row">
        <div className="notifications-filters__search">
          <SearchInput
            label={text.filters.search}
            placeholder={text.filters.searchPlaceholder}
            value={view.search}
            debounceMs={NOTIFICATIONS_DEBOUNCE_MS}
            onSearch={(search) => onChange({ search })}
          />
        </div>
        <Popover label={text.filters.button} title={text.filters.title} placement="bottom end">
          <RangeFields label={text.filters.disposicion} range={view.disposicion} onChange={(disposicion) => onChange({ disposicion })} />
          <RangeFields label={text.filters.caducidad} range={view.caducidad} onChange={(caducidad) => onChange({ caducidad })} />
        </Popover>
      </div>
      {/* Only while a filter is on: kept laid out empty, it left a blank band under the search (issue 43). */}
      {hasFilters(view) && (
        <div className="notifications-filters__chips" aria-label={text.filters.active} role="group">
          {chips.map((chip) => (
            <span key={chip.key} className="ui-chip notifications-filters__chip">
              {chip.label}
              <button type="button" className="ui-icon-button" aria-label={text.filters.remove(chip.label)} onClick={() => onChange(chip.clear)}>
                <IconClose size={14} />
              </button>
            </span>
          ))}
          <Button variant="ghost" onClick={() => onChange({ search: '', disposicion: { from: '', to: '' }, caducidad: { from: '', to: '' } })}>
            {text.filters.clear}
          </Button>
        </div>
      )}
    </div>
  );
}

/** From and to of one date; sent after the typing pauses, and only when the range reads forwards. */
function RangeFields({ label, range, onChange }: { label: string; range: DayRange; onChange: (range: DayRange) => void }) {
  const errorId = useId();
  const [draft, setDraft] = useState(range);
  const [shown, setShown] = useState(range);
  // A range changed from outside (a chip removed, 'Limpiar filtros', the address) replaces the draft.
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // A range still waiting for its debounce when the popup closes is applied then, not dropped.
  const pending = useRef<DayRange | null>(null);
  if (shown.from !== range.from || shown.to !== range.to) {
    setShown(range);
    setDraft(range);
    // What came from outside wins over a range still waiting to be sent.
    clearTimeout(timer.current);
    pending.current = null;
  }
  const latestOnChange = useRef(onChange);
  useEffect(() => {
    latestOnChange.current = onChange;
  });
  useEffect(
    () => () => {
      clearTimeout(timer.current);
      if (pending.current) latestOnChange.current(pending.current);
    },
    [],
  );
  const bad = isBadDayRange(draft);
  const edit = (next: DayRange) => {
    setDraft(next);
    clearTimeout(timer.current);
    pending.current = isBadDayRange(next) ? null : next;
    if (pending.current) {
      timer.current = setTimeout(() => {
        pending.current = null;
        onChange(next);
      }, NOTIFICATIONS_DEBOUNCE_MS);
    }
  };
  return (
    <fieldset className="notifications-filters__range">
      <legend>{label}</legend>
      <label>
        <span>{text.filters.from}</span>
        <input type="date" className="ui-input" value={draft.from} onChange={(event) => edit({ ...draft, from: event.target.value })} />
      </label>
      <label>
        <span>{text.filters.to}</span>
        <input
          type="date"
          className="ui-input"
          value={draft.to}
          aria-invalid={bad || undefined}
          aria-describedby={bad ? errorId : undefined}
          onChange={(event) => edit({ ...draft, to: event.target.value })}
        />
      </label>
      {bad && <p id={errorId} role="alert" className="notifications-filters__error">{text.filters.badRange}</p>}
    </fieldset>
  );
}
