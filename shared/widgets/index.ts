export { DEFAULT_STEPPER_RANGE, clampToRange, stepWithWrap } from './stepper.ts';
export type { StepperRange } from './stepper.ts';
export {
  FIRST_CALENDAR_YEAR, calendarYears, isDayInRange, isoWeek, monthGrid, repeatDays, selectRangeDay,
} from './calendar.ts';
export type { CalendarDay, CalendarWeek, DayKey, DayRange } from './calendar.ts';
