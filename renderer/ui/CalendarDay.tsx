import { useState } from 'react';
import { widgets } from '../i18n/es-screens.ts';
import { parseDayKey } from './calendarModel.ts';
import type { CalendarEvent, DayKey } from './calendarModel.ts';

const text = widgets.calendar;

export interface CalendarDayProps {
  day: DayKey;
  inMonth: boolean;
  isToday: boolean;
  selected: boolean;
  inRange: boolean;
  repeats: boolean;
  events: readonly CalendarEvent[];
  /** Only one day is in the Tab order; arrow keys move between the others. */
  focusable: boolean;
  buttonRef: (element: HTMLButtonElement | null) => void;
  onPick: (day: DayKey) => void;
}

/** 'viernes, 10 de mayo de 2024', with the events and repeat marks read out too. */
function spokenDay(day: DayKey, events: number, repeats: boolean): string {
  const { year, month, day: date } = parseDayKey(day);
  const weekday = text.weekdayNames[(new Date(Date.UTC(year, month - 1, date)).getUTCDay() + 6) % 7];
  const parts = [`${weekday}, ${date} de ${text.months[month - 1]} de ${year}`];
  if (events > 0) parts.push(text.events(events));
  if (repeats) parts.push(text.repeatDay);
  return parts.join(', ');
}

export function CalendarDay({ day, inMonth, isToday, selected, inRange, repeats, events, focusable, buttonRef, onPick }: CalendarDayProps) {
  const [showEvents, setShowEvents] = useState(false);
  const classes = [
    'ui-calendar__day',
    inMonth ? '' : 'ui-calendar__day--outside',
    isToday ? 'ui-calendar__day--today' : '',
    selected ? 'ui-calendar__day--selected' : '',
    inRange ? 'ui-calendar__day--in-range' : '',
    repeats ? 'ui-calendar__day--repeat' : '',
  ].filter(Boolean).join(' ');

  return (
    <td
      role="gridcell"
      aria-selected={selected || inRange}
      className="ui-calendar__cell"
      onMouseEnter={() => setShowEvents(events.length > 0)}
      onMouseLeave={() => setShowEvents(false)}
      onFocus={() => setShowEvents(events.length > 0)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setShowEvents(false);
      }}
    >
      <button
        ref={buttonRef}
        type="button"
        className={classes}
        tabIndex={focusable ? 0 : -1}
        aria-label={spokenDay(day, events.length, repeats)}
        aria-current={isToday ? 'date' : undefined}
        onClick={() => onPick(day)}
      >
        {parseDayKey(day).day}
        {events.length > 0 && <span className="ui-calendar__marker" aria-hidden="true" />}
      </button>
      {showEvents && (
        <ul className="ui-calendar__events" aria-label={text.events(events.length)}>
          {events.map((event) => (
            <li key={event.id}>
              <a href={event.htmlLink} target="_blank" rel="noreferrer">{event.summary || text.untitledEvent}</a>
            </li>
          ))}
        </ul>
      )}
    </td>
  );
}
