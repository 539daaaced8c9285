import { createContext, useContext, useState } from 'react';
import type { DayProps } from 'react-day-picker';
import { widgets } from '../i18n/es-screens.ts';
import { keyOfDate } from './calendarModel.ts';
import type { CalendarEvent, DayKey } from './calendarModel.ts';

const text = widgets.calendar;

/** The external events per day, for the day cells react-day-picker renders. */
export const CalendarEventsContext = createContext<ReadonlyMap<DayKey, CalendarEvent[]>>(new Map());

/**
 * A day cell (react-day-picker's Day component swapped): a dot marks days with external events,
 * and hovering or focusing the day lists them as links to the event.
 */
export function CalendarDay({ day, modifiers, children, ...cellProps }: DayProps) {
  const events = useContext(CalendarEventsContext).get(keyOfDate(day.date)) ?? [];
  const [showEvents, setShowEvents] = useState(false);
  const hasEvents = events.length > 0 && !modifiers.hidden;
  return (
    <td
      {...cellProps}
      onMouseEnter={() => setShowEvents(hasEvents)}
      onMouseLeave={() => setShowEvents(false)}
      onFocus={() => setShowEvents(hasEvents)}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget)) setShowEvents(false);
      }}
    >
      {children}
      {hasEvents && <span className="ui-calendar__marker" aria-hidden="true" />}
      {showEvents && (
        <ul className="ui-calendar__events" aria-label={text.events(events.length)}>
          {events.map((event) => (
            <li key={event.id}>
              <a href={event.htmlLink} target="_blank" rel="noopener noreferrer">
                {event.summary || text.untitledEvent}
              </a>
            </li>
          ))}
        </ul>
      )}
    </td>
  );
}
