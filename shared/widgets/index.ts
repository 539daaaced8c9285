export { DEFAULT_STEPPER_RANGE, clampToRange, stepWithWrap } from './stepper.ts';
export type { StepperRange } from './stepper.ts';
export { FIRST_CALENDAR_YEAR, calendarYears, repeatDays, selectRangeDay } from './calendar.ts';
export type { DayKey, DayRange } from './calendar.ts';
