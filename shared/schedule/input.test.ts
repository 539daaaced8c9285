import { describe, expect, it } from 'vitest';
import { SCHEDULER_MESSAGES, toScheduleTiming, validateSchedulerInput, type SchedulerInput } from './input.ts';

const valid: SchedulerInput = { date: '30/03/2025', hour: 9, minute: 15, repeat: false };

describe('validateSchedulerInput', () => {
  it('accepts the limits of hour and minute', () => {
    expect(validateSchedulerInput({ ...valid, hour: 0, minute: 0 })).toEqual({});
    expect(validateSchedulerInput({ ...valid, hour: '23', minute: '59' })).toEqual({});
  });

  it('rejects hours and minutes out of range or not whole numbers', () => {
    expect(validateSchedulerInput({ ...valid, hour: 24, minute: 60 })).toEqual({
      hour: SCHEDULER_MESSAGES.hour, minute: SCHEDULER_MESSAGES.minute,
    });
    expect(validateSchedulerInput({ ...valid, hour: '-1', minute: 7.5 })).toEqual({
      hour: SCHEDULER_MESSAGES.hour, minute: SCHEDULER_MESSAGES.minute,
    });
    expect(validateSchedulerInput({ ...valid, hour: 'nueve' }).hour).toBe('La hora debe ser un número entre 0 y 23');
  });

  it('needs a real date', () => {
    expect(validateSchedulerInput({ ...valid, date: null }).date).toBe('Selecciona una fecha');
    expect(validateSchedulerInput({ ...valid, date: '31/02/2025' }).date).toBe('Selecciona una fecha');
  });

  it('checks every only when repeating', () => {
    expect(validateSchedulerInput({ ...valid, every: 'x' })).toEqual({});
    expect(validateSchedulerInput({ ...valid, repeat: true, every: 'x' }).every).toBe(SCHEDULER_MESSAGES.every);
    expect(validateSchedulerInput({ ...valid, repeat: true, every: 0 }).every).toBe(SCHEDULER_MESSAGES.every);
    expect(validateSchedulerInput({ ...valid, repeat: true, every: '4' })).toEqual({});
  });
});

describe('toScheduleTiming', () => {
  it('reads the day and time in Madrid and defaults to every 1 day', () => {
    expect(toScheduleTiming({ ...valid, repeat: true })).toEqual({
      scheduledDate: '2025-03-30T07:15:00.000Z', repeat: true, every: 1, interval: 'days',
    });
    expect(toScheduleTiming({ ...valid, date: '2025-01-15', every: '2', interval: 'hours', repeat: true })).toEqual({
      scheduledDate: '2025-01-15T08:15:00.000Z', repeat: true, every: 2, interval: 'hours',
    });
  });

  it('gives nothing for an invalid input', () => {
    expect(toScheduleTiming({ ...valid, hour: 25 })).toBeNull();
  });
});
