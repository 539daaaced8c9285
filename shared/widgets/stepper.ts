/** Number stepper rules (spec §5, §9): values stay in the range and wrap around at the ends. */

export interface StepperRange {
  min: number;
  max: number;
}

export const DEFAULT_STEPPER_RANGE: StepperRange = { min: 0, max: 50 };

/** A typed value brought into the range; what is not a number becomes the minimum. */
export function clampToRange(value: number, range: StepperRange = DEFAULT_STEPPER_RANGE): number {
  if (!Number.isFinite(value)) return range.min;
  return Math.min(range.max, Math.max(range.min, value));
}

/**
 * One press of a stepper button (delta +1 / -1, or larger steps): past the maximum it wraps to the
 * minimum and below the minimum to the maximum, as on a clock (23 + 1 -> 0 for hours 0-23).
 * Steps are whole: the value is rounded to the nearest integer first.
 */
export function stepWithWrap(value: number, delta: number, range: StepperRange = DEFAULT_STEPPER_RANGE): number {
  const min = Math.ceil(range.min);
  const max = Math.floor(range.max);
  if (max < min) return range.min;
  const size = max - min + 1;
  const start = Math.round(clampToRange(value, { min, max }));
  const offset = (((start - min + Math.round(delta)) % size) + size) % size;
  return min + offset;
}
