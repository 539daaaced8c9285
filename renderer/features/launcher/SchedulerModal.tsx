import { useId, useMemo, useState } from 'react';
import type { FormEvent } from 'react';
import { SCHEDULER_MESSAGES, SCHEDULE_INTERVALS, toScheduleTiming, validateSchedulerInput } from '#shared/schedule/index.ts';
import type { ScheduleInterval, ScheduleRequestTiming, SchedulerField } from '#shared/schedule/index.ts';
import { formatMadridDateTime, madridDayKey, toMadridParts } from '#shared/time/index.ts';
import { launcher as text } from '../../i18n/es-launcher.ts';
import { Button } from '../../ui/Button.tsx';
import { Calendar } from '../../ui/Calendar.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { TextField } from '../../ui/TextField.tsx';
import { Toggle } from '../../ui/Toggle.tsx';

const t = text.scheduler;

export interface SchedulerModalProps {
  open: boolean;
  onClose: () => void;
  /** Sends the schedule; resolves true when the server took it (the modal then closes). */
  onSchedule: (timing: ScheduleRequestTiming) => Promise<boolean>;
  /** The clock; tests fix it. */
  now?: Date;
}

type Errors = Partial<Record<SchedulerField | 'past', string>>;

/**
 * The scheduler modal of spec §2/§5: a day on the calendar, hour 0-23 and minute 0-59 on the Madrid
 * wall clock, and optionally a repetition every N hours, days or months (every 1 day by default).
 */
export function SchedulerModal({ open, onClose, onSchedule, now = new Date() }: SchedulerModalProps) {
  return open ? <SchedulerForm onClose={onClose} onSchedule={onSchedule} now={now} /> : null;
}

function SchedulerForm({ onClose, onSchedule, now: clock }: Omit<SchedulerModalProps, 'open'> & { now: Date }) {
  // The clock as the modal opened: its defaults and checks do not move while it is open.
  const [now] = useState(clock);
  const wall = toMadridParts(now);
  // An hour from now by default, on the hour (tomorrow's first hour late in the evening).
  const soon = new Date(now.getTime() + 3_600_000);
  const [date, setDate] = useState<string | null>(madridDayKey(soon));
  const [hour, setHour] = useState(String(toMadridParts(soon).hour));
  const [minute, setMinute] = useState('0');
  const [repeat, setRepeat] = useState(false);
  const [every, setEvery] = useState('1');
  const [interval, setRepeatInterval] = useState<ScheduleInterval>('days');
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const intervalId = useId();

  // The calendar is the heavy part: typing the time does not redraw it.
  // A schedule is in the future: this year and the next five, not 1900 onwards.
  const thisYear = wall.year;
  const calendar = useMemo(() => (
    <Calendar
      label={t.date}
      value={date}
      onChange={(day) => {
        setDate(day);
        setErrors((current) => ({ ...current, date: undefined, past: undefined }));
      }}
      now={now}
      years={{ from: thisYear, to: thisYear + 5 }}
    />
  ), [date, now, thisYear]);

  const input = { date, hour, minute, repeat, every, interval };
  const check = (): Errors => {
    const found: Errors = validateSchedulerInput(input);
    const timing = toScheduleTiming(input);
    if (timing !== null && new Date(timing.scheduledDate).getTime() <= now.getTime()) found.past = t.pastDate;
    return found;
  };
  const timing = toScheduleTiming(input);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0 || timing === null) return;
    setSending(true);
    const done = await onSchedule(timing);
    setSending(false);
    if (done) onClose();
  };

  // Once an error shows, it follows the edits.
  const recheck = () => {
    if (Object.keys(errors).length > 0) setErrors(check());
  };

  return (
    <Modal open title={t.title} onClose={onClose} size="medium">
      <form className="launcher-scheduler" onSubmit={(event) => void submit(event)} onChange={recheck} noValidate>
        <div className="launcher-scheduler__calendar">
          {calendar}
          <p className="app-field__error" role={errors.date ? 'alert' : undefined}><span>{errors.date}</span></p>
        </div>
        <div className="launcher-scheduler__time">
          <TextField label={t.hour} inputMode="numeric" value={hour} onValueChange={setHour} onBlur={recheck} error={errors.hour} reserve={[SCHEDULER_MESSAGES.hour]} />
          <TextField label={t.minute} inputMode="numeric" value={minute} onValueChange={setMinute} onBlur={recheck} error={errors.minute} reserve={[SCHEDULER_MESSAGES.minute]} />
        </div>
        <Toggle label={t.repeat} checked={repeat} onChange={setRepeat} />
        {repeat && (
          <div className="launcher-scheduler__repeat">
            <TextField label={t.every} inputMode="numeric" value={every} onValueChange={setEvery} onBlur={recheck} error={errors.every} reserve={[SCHEDULER_MESSAGES.every]} />
            <div className="app-field">
              <label htmlFor={intervalId}>{t.interval}</label>
              <select id={intervalId} className="ui-input" value={interval} onChange={(event) => setRepeatInterval(event.target.value as ScheduleInterval)}>
                {SCHEDULE_INTERVALS.map((option) => <option key={option} value={option}>{t.intervals[option]}</option>)}
              </select>
            </div>
          </div>
        )}
        <p className="launcher-scheduler__summary" aria-live="polite">
          {errors.past ? <span role="alert" className="launcher-input__failure">{errors.past}</span> : timing !== null ? t.summary(formatMadridDateTime(new Date(timing.scheduledDate))) : '\u00a0'}
        </p>
        <div className="app-prompt__actions">
          <Button variant="secondary" onClick={onClose}>{t.cancel}</Button>
          <Button type="submit" loading={sending}>{t.submit}</Button>
        </div>
      </form>
    </Modal>
  );
}
