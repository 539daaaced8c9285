import { useMemo, useState } from 'react';
import { DayPicker } from 'react-day-picker';
import type { Modifiers } from 'react-day-picker';
import { es as esLocale } from 'react-day-picker/locale';
import 'react-day-picker/style.css';
import { calendarYears, repeatDays, selectRangeDay } from '#shared/widgets/index.ts';
import { madridDayKey } from '#shared/time/index.ts';
import { widgets } from '../i18n/es-screens.ts';
import { CalendarDay, CalendarEventsContext } from './CalendarDay.tsx';
import { dateOfKey, dayKeyOf, eventsByDay, keyOfDate, parseDayKey } from './calendarModel.ts';
import type { CalendarEvent, DayKey, DayRange, RepeatRule } from './calendarModel.ts';
import './Calendar.css';

const text = widgets.calendar;

interface CalendarBaseProps {
  label?: string;
  /** Events of an external calendar, marked on their days with a list of links on hover. */
  events?: readonly CalendarEvent[];
  /** A repeating schedule whose days are highlighted. */
  repeat?: RepeatRule;
  /** Today; the clock by default. */
  now?: Date;
  /**
   * The years offered, both included: 1900 to this year by default (birth dates, past documents);
   * a scheduler, which picks future days, offers this year and the next few.
   */
  years?: YearRange;
}

export interface YearRange {
  from: number;
  to: number;
}

export interface SingleCalendarProps extends CalendarBaseProps {
  mode?: 'single';
  value: DayKey | null;
  onChange: (day: DayKey) => void;
}

export interface RangeCalendarProps extends CalendarBaseProps {
  mode: 'range';
  value: DayRange;
  onChange: (range: DayRange) => void;
}

export type CalendarProps = SingleCalendarProps | RangeCalendarProps;

const weekdayIndex = (date: Date) => (date.getDay() + 6) % 7; // Monday 0 ... Sunday 6

/** 'viernes, 10 de mayo de 2024', with the events and repeat marks read out too. */
function spokenDay(date: Date, events: number, repeats: boolean): string {
  const parts = [`${text.weekdayNames[weekdayIndex(date)]}, ${date.getDate()} de ${text.months[date.getMonth()]} de ${date.getFullYear()}`];
  if (events > 0) parts.push(text.events(events));
  if (repeats) parts.push(text.repeatDay);
  return parts.join(', ');
}

/**
 * The spec's calendar (§2) on react-day-picker: month and year selectors (1900 to this year unless told),
 * ISO weeks (Monday first, Spanish names), single or range selection, dots on days with external
 * events and a hover list of them, repeat-interval days highlighted, 300 px wide. Keyboard moves
 * (arrows, Page Up/Down, Home/End) come from the library.
 */
export function Calendar(props: CalendarProps) {
  const { label = text.label, events = [], repeat, now = new Date() } = props;
  const today = madridDayKey(now);
  const defaultYears = useMemo(() => calendarYears(now), [now]);
  const firstYear = props.years?.from ?? defaultYears[0] ?? parseDayKey(today).year;
  const lastYear = Math.max(firstYear, props.years?.to ?? defaultYears.at(-1) ?? parseDayKey(today).year);
  const selectedStart = props.mode === 'range' ? props.value.start : props.value;

  const [month, setMonth] = useState<Date>(() => dateOfKey(selectedStart ?? today));
  const eventDays = useMemo(() => eventsByDay(events), [events]);

  // Repeat days of the weeks shown (the grid starts up to 6 days before the 1st and ends up to 6 after the last).
  const shownMonth = keyOfDate(month);
  const repeatSet = useMemo(() => {
    if (!repeat) return new Set<DayKey>();
    const { year, month: monthNumber } = parseDayKey(shownMonth);
    const from = keyOfDate(new Date(year, monthNumber - 1, -6));
    const to = keyOfDate(new Date(year, monthNumber, 6));
    return repeatDays(repeat.start, repeat.every, repeat.interval, from, to);
  }, [repeat, shownMonth]);

  const modifiers = {
    repeat: (date: Date) => repeatSet.has(keyOfDate(date)),
    event: (date: Date) => eventDays.has(keyOfDate(date)),
  };
  const common = {
    locale: esLocale,
    weekStartsOn: 1 as const,
    ISOWeek: true,
    showOutsideDays: true,
    fixedWeeks: false,
    captionLayout: 'dropdown' as const,
    startMonth: dayKeyStart(firstYear),
    endMonth: new Date(lastYear, 11, 1),
    month,
    onMonthChange: setMonth,
    today: dateOfKey(today),
    modifiers,
    modifiersClassNames: { repeat: 'ui-calendar__day--repeat', event: 'ui-calendar__day--event' },
    className: 'ui-calendar',
    components: { Day: CalendarDay },
    formatters: {
      formatWeekdayName: (date: Date) => text.weekdayInitials[weekdayIndex(date)] ?? '',
      formatMonthDropdown: (date: Date) => text.months[date.getMonth()] ?? '',
    },
    labels: {
      labelGrid: (date: Date) => `${text.months[date.getMonth()]} ${date.getFullYear()}`,
      labelWeekday: (date: Date) => text.weekdayNames[weekdayIndex(date)] ?? '',
      labelMonthDropdown: () => text.month,
      labelYearDropdown: () => text.year,
      labelPrevious: () => text.previousMonth,
      labelNext: () => text.nextMonth,
      labelDayButton: (date: Date, dayModifiers: Modifiers) =>
        spokenDay(date, eventDays.get(keyOfDate(date))?.length ?? 0, Boolean(dayModifiers.repeat)),
    },
  };

  return (
    <CalendarEventsContext.Provider value={eventDays}>
      <div role="group" aria-label={label} className="ui-calendar-group">
      {props.mode === 'range' ? (
        <DayPicker
          {...common}
          mode="range"
          selected={{
            from: props.value.start ? dateOfKey(props.value.start) : undefined,
            to: props.value.end ? dateOfKey(props.value.end) : undefined,
          }}
          // The shared rule decides (first click starts, second closes in either order, a third restarts).
          onSelect={(_range, day) => props.onChange(selectRangeDay(props.value, keyOfDate(day)))}
        />
      ) : (
        <DayPicker
          {...common}
          mode="single"
          selected={props.value ? dateOfKey(props.value) : undefined}
          // A click on the chosen day keeps it chosen (the library would clear it).
          onSelect={(_date, day) => props.onChange(keyOfDate(day))}
        />
      )}
      </div>
    </CalendarEventsContext.Provider>
  );
}

function dayKeyStart(year: number): Date {
  return dateOfKey(dayKeyOf(year, 1, 1));
}
