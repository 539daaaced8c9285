import { useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { calendarYears, isDayInRange, monthGrid, repeatDays, selectRangeDay } from '#shared/widgets/index.ts';
import { madridDayKey } from '#shared/time/index.ts';
import { widgets } from '../i18n/es-screens.ts';
import { CalendarDay } from './CalendarDay.tsx';
import { IconChevronLeft, IconChevronRight } from './icons.tsx';
import { addDays, addMonths, eventsByDay, parseDayKey } from './calendarModel.ts';
import type { CalendarEvent, DayKey, DayRange, RepeatRule } from './calendarModel.ts';

const text = widgets.calendar;

interface CalendarBaseProps {
  label?: string;
  /** Events of an external calendar, marked on their days with a list of links on hover. */
  events?: readonly CalendarEvent[];
  /** A repeating schedule whose days are highlighted. */
  repeat?: RepeatRule;
  /** Today; the clock by default. Years offered run from 1900 to this year. */
  now?: Date;
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

/** Keys that move the focused day, and how far. */
const moves: Record<string, (day: DayKey) => DayKey> = {
  ArrowLeft: (day) => addDays(day, -1),
  ArrowRight: (day) => addDays(day, 1),
  ArrowUp: (day) => addDays(day, -7),
  ArrowDown: (day) => addDays(day, 7),
  PageUp: (day) => addMonths(day, -1),
  PageDown: (day) => addMonths(day, 1),
  // ISO weeks: Monday is the first day, Sunday the last.
  Home: (day) => addDays(day, -isoWeekday(day)),
  End: (day) => addDays(day, 6 - isoWeekday(day)),
};

/** 0 for Monday ... 6 for Sunday. */
function isoWeekday(day: DayKey): number {
  const { year, month, day: date } = parseDayKey(day);
  return (new Date(Date.UTC(year, month - 1, date)).getUTCDay() + 6) % 7;
}

export function Calendar(props: CalendarProps) {
  const { label = text.label, events = [], repeat, now = new Date() } = props;
  const today = madridDayKey(now);
  const years = useMemo(() => calendarYears(now), [now]);
  const firstYear = Math.min(...years);
  const lastYear = Math.max(...years);
  const selectedStart = props.mode === 'range' ? props.value.start : props.value;

  const [focused, setFocused] = useState<DayKey>(selectedStart ?? today);
  const { year, month } = parseDayKey(focused);
  const moveFocus = useRef(false);
  const dayButtons = useRef(new Map<DayKey, HTMLButtonElement>());

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    dayButtons.current.get(focused)?.focus();
  }, [focused]);

  const weeks = useMemo(() => monthGrid(year, month).map((week) => week.days), [year, month]);
  const firstShown = weeks[0]?.[0]?.key ?? focused;
  const lastShown = weeks.at(-1)?.at(-1)?.key ?? focused;
  const eventDays = useMemo(() => eventsByDay(events), [events]);
  const repeatSet = useMemo(
    () => (repeat ? repeatDays(repeat.start, repeat.every, repeat.interval, firstShown, lastShown) : new Set<DayKey>()),
    [repeat, firstShown, lastShown],
  );

  const inYears = (day: DayKey) => {
    const shownYear = parseDayKey(day).year;
    return shownYear >= firstYear && shownYear <= lastYear;
  };
  const showMonth = (day: DayKey) => inYears(day) && setFocused(day);

  const pick = (day: DayKey) => {
    setFocused(day);
    if (props.mode === 'range') props.onChange(selectRangeDay(props.value, day));
    else props.onChange(day);
  };

  const onGridKeyDown = (event: KeyboardEvent<HTMLTableElement>) => {
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    const next = move(focused);
    if (!inYears(next)) return;
    moveFocus.current = true;
    setFocused(next);
  };

  const isSelected = (day: DayKey) =>
    props.mode === 'range' ? day === props.value.start || day === props.value.end : day === props.value;
  const monthName = text.months[month - 1] ?? '';

  return (
    <div className="ui-calendar" role="group" aria-label={label}>
      <div className="ui-calendar__head">
        <button type="button" className="ui-icon-button" aria-label={text.previousMonth} disabled={year === firstYear && month === 1} onClick={() => showMonth(addMonths(focused, -1))}>
          <IconChevronLeft size={18} />
        </button>
        <select className="ui-calendar__select" aria-label={text.month} value={month} onChange={(event) => showMonth(addMonths(focused, Number(event.target.value) - month))}>
          {text.months.map((name, index) => (
            <option key={name} value={index + 1}>{name}</option>
          ))}
        </select>
        <select className="ui-calendar__select" aria-label={text.year} value={year} onChange={(event) => showMonth(addMonths(focused, (Number(event.target.value) - year) * 12))}>
          {years.map((option) => (
            <option key={option} value={option}>{option}</option>
          ))}
        </select>
        <button type="button" className="ui-icon-button" aria-label={text.nextMonth} disabled={year === lastYear && month === 12} onClick={() => showMonth(addMonths(focused, 1))}>
          <IconChevronRight size={18} />
        </button>
      </div>
      <table role="grid" className="ui-calendar__grid" aria-label={`${monthName} ${year}`} onKeyDown={onGridKeyDown}>
        <thead>
          <tr>
            {text.weekdayInitials.map((initial, index) => (
              <th key={initial + index} scope="col" abbr={text.weekdayNames[index]}>{initial}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week[0]?.key}>
              {week.map(({ key, inMonth }) => (
                <CalendarDay
                  key={key}
                  day={key}
                  inMonth={inMonth}
                  isToday={key === today}
                  selected={isSelected(key)}
                  inRange={props.mode === 'range' && isDayInRange(key, props.value)}
                  repeats={repeatSet.has(key)}
                  events={eventDays.get(key) ?? []}
                  focusable={key === focused}
                  buttonRef={(element) => {
                    if (element) dayButtons.current.set(key, element);
                    else dayButtons.current.delete(key);
                  }}
                  onPick={pick}
                />
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
