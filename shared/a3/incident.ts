import type { FieFieldLookup } from '../fie/slot-entry.ts';
import type { FieEntry } from '../fie/types.ts';

/**
 * A3 incident codes of a FIE entry (spec §9). The spec reads the "waiting-period indicator" of this
 * rule as 1030 (the relapse flag, which matches A3's 5 = recaída) while §3 names 1100 (carencia):
 * both readings stand, so the flag is an option that defaults to 1030.
 */
export type WaitingPeriodFlagCode = 1030 | 1100;

export interface IncidentOptions {
  waitingPeriodFlagCode?: WaitingPeriodFlagCode;
}

/** A3 "Fin IT". */
export const A3_END_OF_LEAVE = 7;

/** Payment mode (1173) -> incident code. */
const PAYMENT_MODE_INCIDENTS: Readonly<Record<string, number>> = { '1': 45, '2': 46, '4': 48 };

/**
 * The incident code of the leave itself, ignoring any alta: the payment mode when it is 1, 2 or 4;
 * otherwise by contingency, 1–2 (common illness, non-work accident) -> 2 and 3–5 (work accident,
 * occupational illness, observation) -> 3, or 5 and 6 when the flag is S. Null without a contingency.
 */
export function leaveIncidentCode(fields: FieFieldLookup, { waitingPeriodFlagCode = 1030 }: IncidentOptions = {}): number | null {
  const byPaymentMode = PAYMENT_MODE_INCIDENTS[fields[1173]?.value ?? ''];
  if (byPaymentMode !== undefined) return byPaymentMode;
  const contingency = Number(fields[1090]?.value);
  const flagged = fields[waitingPeriodFlagCode]?.value === 'S';
  if (contingency === 1 || contingency === 2) return flagged ? 5 : 2;
  if (contingency >= 3 && contingency <= 5) return flagged ? 6 : 3;
  return null;
}

/** The incident code A3 receives for the entry: 7 for an alta with an end date, else the leave's code. */
export function a3IncidentCode(entry: Pick<FieEntry, 'isAlta'> & { fields: FieFieldLookup }, options: IncidentOptions = {}): number | null {
  if (entry.isAlta && typeof entry.fields[1150]?.normalizedValue === 'string') return A3_END_OF_LEAVE;
  return leaveIncidentCode(entry.fields, options);
}
