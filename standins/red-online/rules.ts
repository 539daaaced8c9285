/**
 * The rules the RED Online stand-in applies to an ATR01 alta. Field names and the four non-fatal codes
 * come from the research (external-systems §2.2); the real TGSS texts and the fatal codes' numbers are
 * not public, so every code and text below is ours, written in RED's style ('NNNN TEXTO').
 */

/** Codes the real robots treat as non-fatal (research §2.2): the stand-in uses them for warnings and success. */
export const NON_FATAL_CODES = ['3408', '9125', '9086', '0350'] as const;

/** Our fatal codes (the real numbers are unknown). */
export const FATAL = {
  format: '0101',
  nafControl: '1017',
  cccControl: '1018',
  alreadyInAlta: '3012',
  notAuthorised: '0041',
  tooLate: '3250',
  tooEarly: '3251',
  partTimeCoefficient: '3307',
} as const;

/** Our warning and success codes, all from the research's non-fatal list. */
export const WARNING = {
  /** Pluriempleo: the worker is in alta in another CCC. */
  otherCcc: '3408',
  /** Part-time contract: check the coefficient (the #Sub0600401054 page). */
  partTime: '9125',
  /** Fecha real before today but within the allowed days: alta fuera de plazo. */
  late: '9086',
} as const;
export const SUCCESS_CODE = '0350';

/**
 * A NAF with valid control digits that the stand-in always answers as already in alta in any CCC, so a
 * browser test can count on one fatal #DIL answer (3012). 28 12345678 40 is research §6's example.
 */
export const NAF_ALWAYS_IN_ALTA = '281234567840';

/** TGSS table T19 part-time contract types (2xx and 5xx) the stand-in knows; they need a coefficient. */
const PART_TIME_CONTRACTS = new Set(['200', '209', '230', '241', '250', '289', '500', '501', '502', '510', '530', '540', '541', '550']);

/** What screen 1 carries, as typed. */
export interface Screen1 {
  nafProvince: string;
  nafNumber: string;
  regimen: string;
  ipfType: string;
  ipfNumber: string;
  cccProvince: string;
  cccNumber: string;
}

/** What screen 2 carries, as typed; the date in its three boxes. */
export interface Screen2 {
  situacion: string;
  day: string;
  month: string;
  year: string;
  grupoCotizacion: string;
  tipoContrato: string;
  coeficienteParcialidad: string;
  convenio: string;
  ocupacion: string;
}

/** A #DIL line: code and text. */
export interface DilMessage {
  code: string;
  text: string;
}

export const dil = (code: string, text: string): DilMessage => ({ code, text });
export const dilLine = (message: DilMessage): string => `${message.code} ${message.text}`;

export function isPartTimeContract(tipoContrato: string): boolean {
  return PART_TIME_CONTRACTS.has(tipoContrato);
}

/** NAF control digits (research §6): base % 97, base = N + PP·10^7 when N < 10^7, else PP‖N. */
export function nafHasValidControl(naf: string): boolean {
  if (!/^\d{12}$/.test(naf)) return false;
  const province = Number(naf.slice(0, 2));
  const number = Number(naf.slice(2, 10));
  const base = number < 10_000_000 ? number + province * 10_000_000 : Number(naf.slice(0, 10));
  return base % 97 === Number(naf.slice(10));
}

/** CCC control digits: the first nine digits % 97. */
export function cccHasValidControl(ccc: string): boolean {
  return /^\d{11}$/.test(ccc) && Number(ccc.slice(0, 9)) % 97 === Number(ccc.slice(9));
}

/** Screen 1's format checks: a format error or bad control digits is fatal, as RED refuses the screen. */
export function checkScreen1(screen: Screen1): DilMessage | null {
  if (!/^\d{2}$/.test(screen.nafProvince) || !/^\d{10}$/.test(screen.nafNumber)) {
    return dil(FATAL.format, 'EL NUMERO DE AFILIACION DEBE TENER 2 DIGITOS DE PROVINCIA Y 10 DE NUMERO');
  }
  if (!nafHasValidControl(screen.nafProvince + screen.nafNumber)) return dil(FATAL.nafControl, 'LOS DIGITOS DE CONTROL DEL NUMERO DE AFILIACION NO SON CORRECTOS');
  if (!/^\d{4}$/.test(screen.regimen)) return dil(FATAL.format, 'EL REGIMEN DEBE TENER 4 DIGITOS');
  if (!['1', '2', '6'].includes(screen.ipfType)) return dil(FATAL.format, 'EL TIPO DE IDENTIFICADOR DE PERSONA FISICA NO ES VALIDO');
  // The IPF goes left-padded with zeros to 10 characters (research §2.2: '016262835H').
  if (!/^[0-9A-Z]{10}$/.test(screen.ipfNumber)) return dil(FATAL.format, 'EL IDENTIFICADOR DE PERSONA FISICA DEBE TENER 10 CARACTERES');
  if (!/^\d{2}$/.test(screen.cccProvince) || !/^\d{9}$/.test(screen.cccNumber)) {
    return dil(FATAL.format, 'EL CODIGO DE CUENTA DE COTIZACION DEBE TENER 2 DIGITOS DE PROVINCIA Y 9 DE NUMERO');
  }
  if (!cccHasValidControl(screen.cccProvince + screen.cccNumber)) return dil(FATAL.cccControl, 'LOS DIGITOS DE CONTROL DEL CODIGO DE CUENTA DE COTIZACION NO SON CORRECTOS');
  return null;
}

/** The fecha real as yyyy-mm-dd, or null when the boxes do not make a real date. */
export function fechaRealOf(screen: Screen2): string | null {
  if (!/^\d{2}$/.test(screen.day) || !/^\d{2}$/.test(screen.month) || !/^\d{4}$/.test(screen.year)) return null;
  const iso = `${screen.year}-${screen.month}-${screen.day}`;
  const date = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** Whole days from `from` to `to` (both yyyy-mm-dd). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export interface DateLimits {
  /** Today in Madrid, yyyy-mm-dd. */
  today: string;
  /** How many days back a fecha real may be (older is fatal). */
  maxDaysInPast: number;
  /** How many days ahead an alta previa may be (further is fatal). */
  maxDaysAhead: number;
}

/** Screen 2's checks: formats, the date window and the part-time coefficient. */
export function checkScreen2(screen: Screen2, limits: DateLimits): DilMessage | null {
  if (screen.situacion !== '01') return dil(FATAL.format, 'LA SITUACION PARA UN ALTA DEBE SER 01');
  const fechaReal = fechaRealOf(screen);
  if (fechaReal === null) return dil(FATAL.format, 'LA FECHA REAL NO ES UNA FECHA VALIDA (DD MM AAAA)');
  const ahead = daysBetween(limits.today, fechaReal);
  if (-ahead > limits.maxDaysInPast) return dil(FATAL.tooLate, `LA FECHA REAL NO PUEDE SER ANTERIOR EN MAS DE ${limits.maxDaysInPast} DIAS A LA FECHA DE PRESENTACION`);
  if (ahead > limits.maxDaysAhead) return dil(FATAL.tooEarly, `EL ALTA PREVIA NO PUEDE PRESENTARSE CON MAS DE ${limits.maxDaysAhead} DIAS DE ANTELACION`);
  if (!/^(0[1-9]|1[01])$/.test(screen.grupoCotizacion)) return dil(FATAL.format, 'EL GRUPO DE COTIZACION DEBE ESTAR ENTRE 01 Y 11');
  if (!/^\d{3}$/.test(screen.tipoContrato)) return dil(FATAL.format, 'EL TIPO DE CONTRATO DEBE TENER 3 DIGITOS');
  if (isPartTimeContract(screen.tipoContrato)) {
    if (!/^\d{3}$/.test(screen.coeficienteParcialidad) || screen.coeficienteParcialidad === '000') {
      return dil(FATAL.partTimeCoefficient, 'UN CONTRATO A TIEMPO PARCIAL NECESITA EL COEFICIENTE DE PARCIALIDAD (3 DIGITOS, EN TANTO POR MIL)');
    }
  } else if (screen.coeficienteParcialidad !== '') {
    return dil(FATAL.partTimeCoefficient, 'EL COEFICIENTE DE PARCIALIDAD SOLO SE INDICA EN CONTRATOS A TIEMPO PARCIAL');
  }
  if (screen.convenio !== '' && !/^\d{14}$/.test(screen.convenio)) return dil(FATAL.format, 'EL CODIGO DE CONVENIO COLECTIVO DEBE TENER 14 DIGITOS');
  if (screen.ocupacion !== '' && !/^\d{4}$/.test(screen.ocupacion)) return dil(FATAL.format, 'LA OCUPACION (CNO) DEBE TENER 4 DIGITOS');
  return null;
}

/** 'yyyy-mm-dd' -> 'dd/mm/yyyy'. */
export function spanishDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${day}/${month}/${year}`;
}
