/**
 * The words of the A3 incident codes shared/a3/incident.ts gives (spec §9), for the FIE list. From the
 * research (shared/research/fie-layout.md §5): 2, 3 and 7 are a3's own texts; 5 is a3's recaída; 6 is
 * read as the recaída of a work accident by symmetry with 2/3 -> 5/6; 45, 46 and 48 follow the payment
 * mode (1173) 1, 2 and 4 with no a3 text found, so they say just that.
 */
export const A3_INCIDENT_LABELS: Readonly<Record<number, string>> = {
  2: 'Inicio I.T. (Enfermedad) o Pago Directo INSS',
  3: 'Inicio I.T. (Acc.Laboral) o Pago Directo INSS',
  5: 'Recaída I.T. (Enfermedad)',
  6: 'Recaída I.T. (Acc.Laboral)',
  7: 'Fin IT',
  45: 'I.T. con modalidad de pago 1',
  46: 'I.T. con modalidad de pago 2',
  48: 'I.T. con modalidad de pago 4',
};

export function a3IncidentLabel(code: number): string {
  return A3_INCIDENT_LABELS[code] ?? `Incidencia ${code}`;
}
