/** Types of the FIE ("Fichero INSS Empresas") decoder: the field catalogue, decoded entries and documents. */
import type { DocumentIdType } from '../validation/identifiers.ts';

/** Segment tags that the catalogue knows how to read. Any other tag is kept as an extra segment. */
export type FieSegment = 'ETI' | 'EMP' | 'RZS' | 'TRA' | 'AYN' | 'DAF' | 'DIT' | 'ITD' | 'CIT' | 'DIP' | 'JUB' | 'DOP' | 'NAC';

/**
 * How a slice is read: `date` is AAAAMMDD (00000000 = empty), `integer` is digits, `flag` is S/N,
 * `code` is kept as text (and looked up when the field has a table), `nif` is a zero-padded identifier.
 */
export type FieFieldType = 'date' | 'integer' | 'flag' | 'code' | 'text' | 'nif';

export type LookupTableName =
  | 'provinces'
  | 'regimes'
  | 'personIdTypes'
  | 'employerIdTypes'
  | 'employerTypes'
  | 'contingencies'
  | 'carencia'
  | 'altaCauses'
  | 'entities';

/** One row of the layout: where a field code lives in its segment line and how to read it. */
export interface FieFieldDef {
  code: number;
  segment: FieSegment;
  /** 0-based start in the line, tag included (the field is `line.slice(offset, offset + length)`). */
  offset: number;
  length: number;
  type: FieFieldType;
  /** Spanish label shown to users; spreadsheet headers may use it instead of the code. */
  label: string;
  /** Stable English identifier of the field. */
  ref: string;
  table?: LookupTableName;
  /** True where no real file or official layout confirms the offset yet. */
  provisional: boolean;
}

/** What a field means once read: an ISO date, a number, a flag, a table label or the trimmed text. */
export type FieValue = string | number | boolean | null;

export interface FieField {
  label: string;
  /** The text as found in the file (trimmed), or the cell converted to the text layout. */
  value: string;
  /** Null when the value does not fit the field type (see the document diagnostics). */
  normalizedValue: FieValue;
  section: FieSegment;
  ref: string;
}

/** Fields keyed by numeric code. Only informed fields are present: blanks and 00000000 dates are absent. */
export type FieFields = Record<number, FieField>;

export type FieEntryType = 'alta' | 'baja' | 'dip' | 'cit' | 'dop' | 'nac' | 'jub';

/** One reading of a NIF's shape for the whole product: the validators own it. */
export type IdType = DocumentIdType;

/** A line kept as it was: unknown segments, and repeats of a segment already read for the entry. */
export interface FieLine {
  line: number;
  tag: string;
  text: string;
}

export type FieDiagnosticKind =
  | 'long-line'
  | 'repeated-segment'
  | 'orphan-line'
  | 'invalid-value'
  | 'missing-trailer'
  | 'after-trailer';

/** Something odd but not fatal, with the 1-based line (or spreadsheet row) it came from. */
export interface FieDiagnostic {
  kind: FieDiagnosticKind;
  line: number | null;
  detail: string;
}

/** Values computed from the fields (spec §3 "FIE entry", derived). */
export interface FieEntryFacts {
  fullname: string;
  type: FieEntryType;
  isAlta: boolean;
  isBaja: boolean;
  /** Days of leave from 1020 to 1150, both days counted; null while the leave is open. */
  duration: number | null;
  shortDuration: boolean;
  isCanceled: boolean;
  nif: string | null;
  idType: IdType | null;
}

export interface FieEntry extends FieEntryFacts {
  fields: FieFields;
  extraSegments: FieLine[];
}

export type FieVersion = 'FIE3' | 'FIE4';
export type FieFormat = 'text' | 'spreadsheet';

export interface FieDocument {
  format: FieFormat;
  /** From the ETI header of a text file; spreadsheets carry no header, so null. */
  version: FieVersion | null;
  ignored: boolean;
  /** Why the file was ignored, in Spanish. */
  reason?: string;
  /** dd/mm/yyyy, or 'first • last' when the entries span several registration dates. */
  registryDate: string | null;
  entries: FieEntry[];
  diagnostics: FieDiagnostic[];
}
