import { madridDayKey } from '#shared/time/index.ts';

/**
 * yyyymmdd on the Madrid calendar: how the demo's files are dated in their names, in its seeded log
 * lines (demo-runs.ts) and in the inputs its robots get (demo-input.ts). A module of its own, so the
 * seed, which runs at start, does not load demo-input.ts's sample generators and SheetJS with it.
 */
export function fileDate(date: Date): string {
  return madridDayKey(date).replaceAll('-', '');
}
