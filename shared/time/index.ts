export {
  formatMadridDate, formatMadridDateTime, formatMadridTime, fromMadridParts, madridDayKey,
  madridOffsetMinutes, startOfMadridDay, toMadridParts,
} from './madrid.ts';
export type { MadridParts, MadridReading } from './madrid.ts';
