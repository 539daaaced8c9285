import type { FieEntryType } from './types.ts';

export interface FieTypeLabel {
  label: string;
  /** Disabled types are shown but cannot be selected or synced (spec §2, FIE list). */
  disabled: boolean;
}

/** Type labels of FIE entries, in the order the FIE list shows them. */
export const FIE_TYPE_LABELS: Readonly<Record<FieEntryType, FieTypeLabel>> = {
  alta: { label: 'Alta del trabajador/a', disabled: false },
  baja: { label: 'Baja por incapacidad temporal', disabled: false },
  dip: { label: 'Baja por incapacidad permanente', disabled: false },
  cit: { label: 'Continuación en situación de IT', disabled: false },
  dop: { label: 'Datos de otras prestaciones', disabled: true },
  nac: { label: 'Datos sobre nacimientos', disabled: true },
  jub: { label: 'Jubilación', disabled: true },
};

export function fieTypeLabel(type: FieEntryType): string {
  return FIE_TYPE_LABELS[type].label;
}

export function isFieTypeDisabled(type: FieEntryType): boolean {
  return FIE_TYPE_LABELS[type].disabled;
}
