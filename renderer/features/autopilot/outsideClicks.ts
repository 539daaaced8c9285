/** Spec §9: two clicks outside the panel within 1 s close it; a single one shows the hint for 2 s. */
export const DOUBLE_CLICK_WINDOW_MS = 1000;
export const EXIT_HINT_MS = 2000;

export type OutsideClickVerdict = 'hint' | 'close';

/**
 * Judges each click outside the panel, given when it happened (ms): the first of a pair asks for the
 * hint, a second within the window closes. A pair is used up, so a third click starts afresh.
 */
export function createOutsideClickJudge(windowMs: number = DOUBLE_CLICK_WINDOW_MS): (at: number) => OutsideClickVerdict {
  let previous: number | null = null;
  return (at) => {
    if (previous !== null && at - previous <= windowMs) {
      previous = null;
      return 'close';
    }
    previous = at;
    return 'hint';
  };
}
