/** Two picked days ('yyyy-mm-dd', Madrid), '' when not set: what the screens' date filters hold. */
export interface DayRange {
  from: string;
  to: string;
}

/** 'Hasta' before 'Desde': the screen says so, and its query leaves 'Hasta' out until it is fixed. */
export const isBadDayRange = (range: DayRange) => range.from !== '' && range.to !== '' && range.to < range.from;
