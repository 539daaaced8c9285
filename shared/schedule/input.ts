import { fromMadridParts } from '../time/madrid.ts';
import { parseCalendarDate } from '../validation/formats.ts';
import { DEFAULT_REPEAT, SCHEDULE_INTERVALS, type ScheduleInterval } from './next-run.ts';

/** What the scheduler modal holds; number fields may still be the text the user typed. */
export interface SchedulerInput {
  /** The day as 'dd/mm/yyyy' or 'yyyy-mm-dd', read in Madrid. */
  date: string | null;
  hour: number | string;
  minute: number | string;
  repeat: boolean;
  every?: number | string;
  interval?: ScheduleInterval;
}

export type SchedulerField = 'date' | 'hour' | 'minute' | 'every' | 'interval';

export const SCHEDULER_MESSAGES: Record<SchedulerField, string> = {
  date: 'Selecciona una fecha',
  hour: 'La hora debe ser un número entre 0 y 23',
  minute: 'Los minutos deben ser un número entre 0 y 59',
  every: 'La repetición debe ser un número entero mayor que 0',
  interval: 'Elige un intervalo: horas, días o meses',
};

function wholeNumber(value: number | string | undefined): number | null {
  if (typeof value === 'number') return Number.isInteger(value) ? value : null;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return null;
}

const inRange = (value: number | null, min: number, max: number): boolean => value !== null && value >= min && value <= max;

/** Spec §5 scheduler limits: a date, hour 0-23, minute 0-59, and when repeating, 'every' a number. */
export function validateSchedulerInput(input: SchedulerInput): Partial<Record<SchedulerField, string>> {
  const errors: Partial<Record<SchedulerField, string>> = {};
  if (input.date === null || parseCalendarDate(input.date) === null) errors.date = SCHEDULER_MESSAGES.date;
  if (!inRange(wholeNumber(input.hour), 0, 23)) errors.hour = SCHEDULER_MESSAGES.hour;
  if (!inRange(wholeNumber(input.minute), 0, 59)) errors.minute = SCHEDULER_MESSAGES.minute;
  if (input.repeat) {
    const every = input.every === undefined ? DEFAULT_REPEAT.every : wholeNumber(input.every);
    if (every === null || every < 1) errors.every = SCHEDULER_MESSAGES.every;
    if (input.interval !== undefined && !SCHEDULE_INTERVALS.includes(input.interval)) errors.interval = SCHEDULER_MESSAGES.interval;
  }
  return errors;
}

export interface ScheduleRequestTiming {
  scheduledDate: string;
  repeat: boolean;
  every: number;
  interval: ScheduleInterval;
}

/**
 * The scheduledDate (ISO, UTC) and repetition a valid input stands for; the day and time are read on
 * the Madrid wall clock. Returns null when the input has errors. Repetition defaults to every 1 day.
 */
export function toScheduleTiming(input: SchedulerInput): ScheduleRequestTiming | null {
  if (Object.keys(validateSchedulerInput(input)).length > 0) return null;
  const day = input.date === null ? null : parseCalendarDate(input.date);
  if (day === null) return null;
  const scheduledDate = fromMadridParts({ ...day, hour: Number(input.hour), minute: Number(input.minute) });
  return {
    scheduledDate: scheduledDate.toISOString(),
    repeat: input.repeat,
    every: input.every === undefined ? DEFAULT_REPEAT.every : Number(input.every),
    interval: input.interval ?? DEFAULT_REPEAT.interval,
  };
}
