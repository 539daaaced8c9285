import { useId } from 'react';
import { A3_SYNC_STATES, FIE_ENTRY_TYPES } from '#shared/api/fie.ts';
import { fieTypeLabel } from '#shared/fie/labels.ts';
import { fie as text } from '../../i18n/es-fie.ts';
import { Button, IconChevronDown } from '../../ui/index.ts';
import { DateRangeFields } from '../../ui/DateRangeFields.tsx';
import { isBadDayRange } from '../../ui/dayRange.ts';
import { SearchInput } from '../../ui/SearchInput.tsx';
import { hasFilters } from './fieView.ts';
import type { FieView } from './fieView.ts';

/** How long the search box waits for typing to pause before the address (and the query) change. */
export const FIE_SEARCH_DEBOUNCE_MS = 350;

export interface FieFiltersProps {
  view: FieView;
  onChange: (change: Partial<FieView>) => void;
}

/**
 * Search (name, NIF, company), entry types (several), date range and A3 state. The types open in a
 * disclosure laid over the list, so choosing them moves nothing under the pointer.
 */
export function FieFilters({ view, onChange }: FieFiltersProps) {
  const rangeErrorId = useId();
  const badRange = isBadDayRange(view);
  const filtering = hasFilters(view);
  const toggleType = (type: FieView['types'][number], checked: boolean) =>
    onChange({ types: checked ? [...view.types, type] : view.types.filter((chosen) => chosen !== type) });

  return (
    <div className="fie-filters" role="search" aria-label={text.filters.title}>
      <div className="fie-filters__search">
        <SearchInput label={text.filters.search} placeholder={text.filters.searchPlaceholder} value={view.q} debounceMs={FIE_SEARCH_DEBOUNCE_MS} onSearch={(q) => onChange({ q })} />
      </div>
      <details className="fie-filters__types">
        <summary className="ui-input fie-filters__summary">
          <span className="ui-visually-hidden">{text.filters.type}: </span>
          <span>{view.types.length === 0 ? text.filters.allTypes : text.filters.typesChosen(view.types.length)}</span>
          <IconChevronDown size={16} className="fie-filters__chevron" />
        </summary>
        <fieldset className="fie-filters__type-list">
          <legend className="ui-visually-hidden">{text.filters.type}</legend>
          {FIE_ENTRY_TYPES.map((type) => (
            <label key={type} className="fie-filters__type">
              <input type="checkbox" checked={view.types.includes(type)} onChange={(event) => toggleType(type, event.target.checked)} />
              <span>{fieTypeLabel(type)}</span>
            </label>
          ))}
        </fieldset>
      </details>
      <DateRangeFields
        range={view}
        onChange={(field, value) => onChange({ [field]: value })}
        labels={{ from: text.filters.from, to: text.filters.to }}
        errorId={rangeErrorId}
        fieldClassName="fie-filters__field"
      />
      <label className="fie-filters__field">
        <span>{text.filters.a3}</span>
        <select className="ui-input" value={view.a3} onChange={(event) => onChange({ a3: event.target.value as FieView['a3'] })}>
          <option value="">{text.filters.allA3}</option>
          {A3_SYNC_STATES.map((state) => (
            <option key={state} value={state}>{text.a3States[state]}</option>
          ))}
        </select>
      </label>
      {/* Always laid out, shown only while filtering: its appearing moves nothing. Hidden, it is out of the tab order and the accessibility tree. */}
      <div className="fie-filters__clear" style={filtering ? undefined : { visibility: 'hidden' }}>
        <Button variant="ghost" onClick={() => onChange({ q: '', types: [], from: '', to: '', a3: '' })}>{text.filters.clear}</Button>
      </div>
      <p className="ui-muted fie-filters__hint">{text.filters.datesHint}</p>
      {badRange && <p id={rangeErrorId} className="fie-filters__error" role="alert">{text.filters.badRange}</p>}
    </div>
  );
}
