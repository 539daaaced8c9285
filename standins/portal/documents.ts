/**
 * The portal's data: a few deterministic "justificantes" per NIF, shaped after what DEHú lists for a
 * holder (identificador, concepto, organismo emisor, fecha de puesta a disposición, comunicación or
 * notificación). The same NIF always gets the same documents, so a robot's run can be checked exactly.
 */
import { createHash } from 'node:crypto';

export interface PortalDocument {
  /** Stable identifier, also the PDF's file name: `<NIF>-<yyyy>-<nnn>`. */
  id: string;
  nif: string;
  concept: string;
  issuer: string;
  /** Fecha de puesta a disposición, YYYY-MM-DD. */
  date: string;
  kind: 'Notificación' | 'Comunicación';
}

const CONCEPTS: Array<{ concept: string; issuer: string }> = [
  { concept: 'Justificante de presentación modelo 303', issuer: 'Agencia Estatal de Administración Tributaria' },
  { concept: 'Justificante de presentación modelo 111', issuer: 'Agencia Estatal de Administración Tributaria' },
  { concept: 'Resolución de alta en el Régimen General', issuer: 'Tesorería General de la Seguridad Social' },
  { concept: 'Requerimiento de información', issuer: 'Agencia Estatal de Administración Tributaria' },
  { concept: 'Certificado de estar al corriente', issuer: 'Tesorería General de la Seguridad Social' },
  { concept: 'Comunicación de inicio de procedimiento', issuer: 'Agencia Estatal de Administración Tributaria' },
];

/** Six documents dated through 2026, chosen and ordered by a hash of the NIF. */
export function documentsFor(nif: string): PortalDocument[] {
  const seed = createHash('sha256').update(nif.toUpperCase()).digest();
  return CONCEPTS.map((_, index): PortalDocument => {
    const pick = CONCEPTS[(seed[index]! + index) % CONCEPTS.length]!;
    const month = 1 + ((seed[8 + index]! + index * 2) % 12);
    const day = 1 + (seed[16 + index]! % 28);
    return {
      id: `${nif.toUpperCase()}-2026-${String(index + 1).padStart(3, '0')}`,
      nif: nif.toUpperCase(),
      concept: pick.concept,
      issuer: pick.issuer,
      date: `2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      kind: pick.concept.startsWith('Comunicación') ? 'Comunicación' : 'Notificación',
    };
  }).sort((first, second) => first.date.localeCompare(second.date) || first.id.localeCompare(second.id));
}

/** The holder's documents whose date falls within [from, to] (either end may be empty). */
export function searchDocuments(nif: string, from: string, to: string): PortalDocument[] {
  return documentsFor(nif).filter((document) => (!from || document.date >= from) && (!to || document.date <= to));
}
