import type { LookupTableName } from './types.ts';

/** What a code missing from its table shows (spec §3, lookup tables). */
export const TABLE_NOT_FOUND = '[[ Tabla no encontrada ]]';

interface LookupTable {
  /** Numeric codes are zero-padded to this width before the lookup ('8' and '08' are Barcelona). */
  width: number;
  entries: Readonly<Record<string, string>>;
}

// TGSS table T62.
const PROVINCES = [
  'Araba/Álava', 'Albacete', 'Alacant', 'Almería', 'Ávila', 'Badajoz', 'Illes Balears', 'Barcelona', 'Burgos', 'Cáceres',
  'Cádiz', 'Castelló', 'Ciudad Real', 'Córdoba', 'A Coruña', 'Cuenca', 'Girona', 'Granada', 'Guadalajara', 'Gipuzkoa',
  'Huelva', 'Huesca', 'Jaén', 'León', 'Lleida', 'La Rioja', 'Lugo', 'Madrid', 'Málaga', 'Murcia',
  'Navarra', 'Ourense', 'Asturias', 'Palencia', 'Las Palmas', 'Pontevedra', 'Salamanca', 'S.C. Tenerife', 'Cantabria', 'Segovia',
  'Sevilla', 'Soria', 'Tarragona', 'Teruel', 'Toledo', 'Valencia', 'Valladolid', 'Bizkaia', 'Zamora', 'Zaragoza',
  'Ceuta', 'Melilla',
];

const TABLES: Readonly<Record<LookupTableName, LookupTable>> = {
  provinces: {
    width: 2,
    entries: Object.fromEntries(PROVINCES.map((name, index) => [String(index + 1).padStart(2, '0'), name])),
  },
  // TGSS table T02 (régimen/sector).
  regimes: {
    width: 4,
    entries: {
      '0111': 'General',
      '0112': 'General - Artistas',
      '0114': 'General - Profesionales taurinos',
      '0131': 'S.E. Resina',
      '0132': 'S.E. Frutas, hortalizas y conservas vegetales',
      '0134': 'S.E. Tomate fresco',
      '0135': 'S.E. Hostelería',
      '0136': 'S.E. Fijos discontinuos de cines y salas de baile',
      '0137': 'S.E. Estudios de mercado',
      '0138': 'S.E. Empleados de hogar',
      '0163': 'S.E. Agrario',
      '0521': 'Trabajadores autónomos',
      '0613': 'R.E. Agrario (jornadas reales)',
      '0811': 'Trabajadores del mar - cuenta ajena grupo 1',
      '0812': 'Trabajadores del mar - cuenta ajena grupo 2A',
      '0813': 'Trabajadores del mar - cuenta ajena grupo 2B',
      '0814': 'Trabajadores del mar - cuenta ajena grupo 3',
      '0821': 'Trabajadores del mar - armadores grupo 1',
      '0822': 'Trabajadores del mar - armadores grupo 2A',
      '0823': 'Trabajadores del mar - armadores grupo 2B',
      '0825': 'Trabajadores del mar - autónomos',
      '0911': 'Minería del carbón',
      '3011': 'Asistencia sanitaria concertada',
    },
  },
  // TGSS table T11 (tipo de identificador de persona física).
  personIdTypes: {
    width: 1,
    entries: { '1': 'D.N.I./N.I.F.', '2': 'Pasaporte', '6': 'N.I.E.', L: 'Españoles sin DNI no residentes', M: 'Extranjeros sin NIE' },
  },
  // TGSS table T03 (tipo de identificador del empresario).
  employerIdTypes: {
    width: 1,
    entries: {
      '1': 'D.N.I./N.I.F.',
      '6': 'N.I.E.',
      '9': 'C.I.F.',
      K: 'Españoles sin DNI menores de 14 años',
      L: 'Españoles sin DNI no residentes',
      M: 'Extranjeros sin NIF no residentes',
    },
  },
  // TGSS table T08 (tipo alfabético de empresario).
  employerTypes: {
    width: 1,
    entries: { '1': 'Individual', '2': 'Colectivo', '3': 'Sin personalidad jurídica', '4': 'Administración pública' },
  },
  contingencies: {
    width: 1,
    entries: {
      '1': 'Enfermedad común',
      '2': 'Accidente no laboral',
      '3': 'Accidente de trabajo',
      '4': 'Enfermedad profesional',
      '5': 'Periodo de observación por enfermedad profesional',
    },
  },
  carencia: {
    width: 1,
    entries: { S: 'Se acredita carencia', N: 'No se acredita carencia', P: 'Pendiente de la Dirección Provincial del INSS' },
  },
  // Partial: the codes the research found; the official table was not available.
  altaCauses: {
    width: 2,
    entries: {
      '01': 'Curación',
      '02': 'Fallecimiento',
      '03': 'Inspección médica',
      '06': 'Mejoría que permite realizar el trabajo habitual',
      '07': 'Incomparecencia',
      '09': 'Agotamiento de plazo',
      '12': 'Propuesta de incapacidad permanente',
      '17': 'Recuperación de la capacidad profesional',
      '18': 'Incomparecencia en contratos de formación',
    },
  },
  // Mutuas colaboradoras by registry number (Fremap 61, Mutua Gallega 201, Fraternidad 275 checked in
  // public pages; the rest as commonly published). How the FIE names the INSS itself is unconfirmed.
  entities: {
    width: 3,
    entries: {
      '001': 'MC Mutual',
      '002': 'Mutualia',
      '003': 'Umivale Activa',
      '007': 'Mutua Montañesa',
      '010': 'Mutua Universal',
      '011': 'MAZ',
      '021': 'Mutua Navarra',
      '039': 'Mutua Intercomarcal',
      '061': 'Fremap',
      '072': 'Solimat',
      '151': 'Asepeyo',
      '183': 'Mutua Balear',
      '201': 'Mutua Gallega',
      '267': 'Unión de Mutuas',
      '272': 'MAC, Mutua de Accidentes de Canarias',
      '274': 'Ibermutua',
      '275': 'Fraternidad-Muprespa',
      '276': 'Egarsat',
    },
  },
};

/** The label of a code in a table, or '[[ Tabla no encontrada ]]' when the table has no such code. */
export function lookup(table: LookupTableName, code: string): string {
  const { width, entries } = TABLES[table];
  const trimmed = code.trim().toUpperCase();
  const key = /^\d+$/.test(trimmed) ? trimmed.padStart(width, '0') : trimmed;
  return Object.hasOwn(entries, key) ? (entries[key] ?? TABLE_NOT_FOUND) : TABLE_NOT_FOUND;
}

const TABLE_MAPS: Readonly<Record<LookupTableName, ReadonlyMap<string, string>>> = Object.fromEntries(
  Object.entries(TABLES).map(([name, { entries }]) => [name, new Map(Object.entries(entries))]),
) as unknown as Record<LookupTableName, ReadonlyMap<string, string>>;

/**
 * lookup() of a code that has no surrounding white space (a trimmed field), by a Map and a char-code
 * scan instead of regexes when the code is ASCII digits and capitals; any other code goes to lookup().
 */
export function lookupTrimmed(table: LookupTableName, code: string): string {
  if (code.length === 0) return lookup(table, code);
  let digits = true;
  for (let index = 0; index < code.length; index += 1) {
    const char = code.charCodeAt(index);
    if (char >= 0x30 && char <= 0x39) continue;
    if (char < 0x41 || char > 0x5a) return lookup(table, code);
    digits = false;
  }
  const { width } = TABLES[table];
  const key = digits && code.length < width ? code.padStart(width, '0') : code;
  return TABLE_MAPS[table].get(key) ?? TABLE_NOT_FOUND;
}

/** A table's codes and labels, for pickers and documentation. */
export function tableEntries(table: LookupTableName): ReadonlyArray<readonly [code: string, label: string]> {
  return Object.entries(TABLES[table].entries);
}
