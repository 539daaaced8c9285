import { isBadDayRange, type DayRange } from './dayRange.ts';

export interface DateRangeFieldsProps {
  range: DayRange;
  onChange: (field: keyof DayRange, value: string) => void;
  labels: { from: string; to: string };
  /** The element that says why a 'Hasta' before 'Desde' is wrong (the screen writes it where it fits). */
  errorId: string;
  /** The class of each field's label, as the screen lays its filters out. */
  fieldClassName?: string;
}

/**
 * 'Desde' and 'Hasta' day fields: each picker stops at the other's day, and a 'Hasta' before 'Desde'
 * is marked invalid and described by `errorId`. The run history, the FIE processor and the ledger
 * filter by days with it.
 */
export function DateRangeFields({ range, onChange, labels, errorId, fieldClassName }: DateRangeFieldsProps) {
  const bad = isBadDayRange(range);
  return (
    <>
      <label className={fieldClassName}>
        <span>{labels.from}</span>
        <input type="date" className="ui-input" value={range.from} max={range.to || undefined} onChange={(event) => onChange('from', event.target.value)} />
      </label>
      <label className={fieldClassName}>
        <span>{labels.to}</span>
        <input
          type="date"
          className="ui-input"
          value={range.to}
          min={range.from || undefined}
          aria-invalid={bad || undefined}
          aria-describedby={bad ? errorId : undefined}
          onChange={(event) => onChange('to', event.target.value)}
        />
      </label>
    </>
  );
}
