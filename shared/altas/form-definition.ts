import type { FormDefinition, FormField, FormPage, fieldOverrideSchema } from '../api/altas.ts';
import { ALTAS_FLOW_ID } from '../api/altas.ts';
import type { z } from 'zod/mini';

/**
 * The built-in form of a worker's alta (ALTAS_FLOW_ID, issue 23): what the company fills ('client')
 * and what the advisor fills once per group ('userBefore'). Keys are the spec's known fieldsValues
 * keys (§3 Registration), which the RED and A3 robots read. Locked fields are the ones those robots need.
 */

export type FieldOverride = z.infer<typeof fieldOverrideSchema>;
export type FieldOverrides = Record<string, FieldOverride>;

export const FIELD = {
  nombre: 'nombre',
  primerApellido: 'PrimerApellido',
  segundoApellido: 'SegundoApellido',
  tipoDocumento: 'Tipo de documento',
  nif: 'NIF',
  naf: 'NAF',
  email: 'email',
  telefono: 'telefono',
  sexo: 'Sexo',
  fechaNacimiento: 'Fecha Nacimiento',
  fechaAlta: 'Fecha Alta',
  fechaInicio: 'Fecha Inicio',
  ccc: 'CCC',
  iban: 'IBAN',
  fotoDni: 'Foto DNI',
  contrato: 'Contrato',
  jornada: 'Jornada',
  tipoContrato: 'Tipo Contrato*',
  coeficiente: 'Coeficiente Parcialidad',
  grupoCotizacion: 'Grupo Cotización',
  convenio: 'Convenio Colectivo',
  ocupacion: 'CN Ocupación',
  categoria: 'Categoría Profesional',
} as const;

/** TGSS contribution groups (grupos de cotización del Régimen General). */
export const GRUPOS_COTIZACION = [
  { key: '01', text: 'Ingenieros y licenciados. Personal de alta dirección' },
  { key: '02', text: 'Ingenieros técnicos, peritos y ayudantes titulados' },
  { key: '03', text: 'Jefes administrativos y de taller' },
  { key: '04', text: 'Ayudantes no titulados' },
  { key: '05', text: 'Oficiales administrativos' },
  { key: '06', text: 'Subalternos' },
  { key: '07', text: 'Auxiliares administrativos' },
  { key: '08', text: 'Oficiales de primera y segunda' },
  { key: '09', text: 'Oficiales de tercera y especialistas' },
  { key: '10', text: 'Peones' },
  { key: '11', text: 'Trabajadores menores de dieciocho años' },
] as const;

const client = (field: Omit<FormField, 'fieldWriter'>): FormField => ({ ...field, fieldWriter: 'client' });
const advisor = (field: Omit<FormField, 'fieldWriter'>): FormField => ({ ...field, fieldWriter: 'userBefore' });

const BUILT_IN_FIELDS: Record<string, FormField> = {
  [FIELD.nombre]: client({ fieldType: 'text', title: 'Nombre', required: true }),
  [FIELD.primerApellido]: client({ fieldType: 'text', title: 'Primer apellido', required: true }),
  [FIELD.segundoApellido]: client({ fieldType: 'text', title: 'Segundo apellido' }),
  [FIELD.tipoDocumento]: client({
    fieldType: 'dropdown',
    title: 'Tipo de documento',
    required: true,
    validValues: [
      { key: '1', text: 'D.N.I./N.I.F.' },
      { key: '2', text: 'Pasaporte' },
      { key: '6', text: 'N.I.E.' },
    ],
  }),
  [FIELD.nif]: client({ fieldType: 'text', title: 'Número de documento', required: true, validate: 'nienifpassport' }),
  [FIELD.naf]: client({ fieldType: 'text', title: 'Número de afiliación (NAF)', required: true, validate: 'nafcontrol' }),
  [FIELD.email]: client({ fieldType: 'text', title: 'Email del trabajador', validate: 'email' }),
  [FIELD.telefono]: client({ fieldType: 'text', title: 'Teléfono', validate: 'tel' }),
  [FIELD.sexo]: client({
    fieldType: 'dropdown',
    title: 'Sexo',
    required: true,
    validValues: [
      { key: '1', text: 'Hombre' },
      { key: '2', text: 'Mujer' },
    ],
  }),
  [FIELD.fechaNacimiento]: client({ fieldType: 'date', title: 'Fecha de nacimiento', required: true }),
  [FIELD.fechaAlta]: client({ fieldType: 'date', title: 'Fecha de alta', required: true, locked: true }),
  [FIELD.fechaInicio]: client({ fieldType: 'date', title: 'Fecha de inicio del contrato' }),
  [FIELD.ccc]: client({ fieldType: 'dropdown', title: 'Cuenta de cotización (CCC)', required: true, locked: true, validValuesFromExtraFields: { field: 'CCC' } }),
  [FIELD.iban]: client({ fieldType: 'text', title: 'IBAN para la nómina', validate: 'iban' }),
  [FIELD.fotoDni]: client({ fieldType: 'file', title: 'Foto del documento de identidad' }),
  [FIELD.contrato]: client({ fieldType: 'file', title: 'Contrato firmado' }),
  [FIELD.jornada]: advisor({
    fieldType: 'dropdown',
    title: 'Jornada',
    required: true,
    validValues: [
      { key: 'completa', text: 'Completa' },
      { key: 'parcial', text: 'Parcial' },
    ],
  }),
  [FIELD.tipoContrato]: advisor({
    fieldType: 'dropdown',
    title: 'Tipo de contrato',
    required: true,
    locked: true,
    dependentKey: FIELD.jornada,
    dependentOptions: {
      completa: [
        { key: '100', text: 'Indefinido a tiempo completo' },
        { key: '402', text: 'Temporal por circunstancias de la producción a tiempo completo' },
        { key: '410', text: 'Sustitución a tiempo completo' },
      ],
      parcial: [
        { key: '200', text: 'Indefinido a tiempo parcial' },
        { key: '300', text: 'Fijo discontinuo' },
        { key: '502', text: 'Temporal por circunstancias de la producción a tiempo parcial' },
        { key: '510', text: 'Sustitución a tiempo parcial' },
      ],
    },
  }),
  [FIELD.coeficiente]: advisor({ fieldType: 'text', title: 'Coeficiente de parcialidad (‰)', validate: 'parcialidad' }),
  [FIELD.grupoCotizacion]: advisor({ fieldType: 'dropdown', title: 'Grupo de cotización', required: true, locked: true, validValues: GRUPOS_COTIZACION.map((group) => ({ ...group })) }),
  [FIELD.convenio]: advisor({ fieldType: 'text', title: 'Código de convenio colectivo', required: true, validate: 'convenio' }),
  [FIELD.ocupacion]: advisor({ fieldType: 'text', title: 'Ocupación (CNO)', required: true, validate: 'cno' }),
  [FIELD.categoria]: advisor({ fieldType: 'text', title: 'Categoría profesional' }),
};

export const BUILT_IN_FIELDS_ORDER: readonly string[] = Object.keys(BUILT_IN_FIELDS);

export const DEFAULT_FORM_PAGES: readonly FormPage[] = [
  { title: 'Datos personales', fields: [FIELD.nombre, FIELD.primerApellido, FIELD.segundoApellido, FIELD.tipoDocumento, FIELD.nif, FIELD.naf, FIELD.email, FIELD.telefono, FIELD.sexo, FIELD.fechaNacimiento] },
  {
    title: 'Contrato',
    fields: [FIELD.fechaAlta, FIELD.fechaInicio, FIELD.ccc, FIELD.iban, FIELD.jornada, FIELD.tipoContrato, FIELD.coeficiente, FIELD.grupoCotizacion, FIELD.convenio, FIELD.ocupacion, FIELD.categoria],
  },
  { title: 'Documentos', fields: [FIELD.fotoDni, FIELD.contrato] },
];

/** A deep copy of plain JSON data (shared/ has no structuredClone in its libs). */
const copyOf = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/** A copy of the built-in fields (callers may change theirs). */
/**
 * Whether a field offers a list to choose from: its own values, another field's dependent options, or
 * the company's CCCs. A dropdown with none of them is typed as text (spec §5).
 */
export function isChoiceField(field: FormField): boolean {
  if (field.fieldType !== 'dropdown') return false;
  return (field.validValues?.length ?? 0) > 0 || field.validValuesFromExtraFields !== undefined || field.dependentOptions !== undefined;
}

export function builtInFields(): Record<string, FormField> {
  return copyOf(BUILT_IN_FIELDS);
}

/** What a firm's overrides may not do, per field key: { [key]: Spanish message }. */
export function fieldOverrideErrors(overrides: FieldOverrides): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const [key, override] of Object.entries(overrides)) {
    const field = BUILT_IN_FIELDS[key];
    if (field === undefined) errors[key] = 'Este campo no existe en el formulario';
    else if (field.locked === true && override.required === false) errors[key] = `El campo «${field.title}» es necesario para el alta y debe ser obligatorio`;
    else if (field.locked === true && override.fieldWriter !== undefined && override.fieldWriter !== field.fieldWriter) errors[key] = `El campo «${field.title}» no puede cambiar de quién lo rellena`;
    else if (override.validValues !== undefined && (field.fieldType !== 'dropdown' || field.locked === true || field.validValues === undefined)) errors[key] = `Las opciones del campo «${field.title}» no se pueden cambiar`;
    else if (override.validValues?.length === 0) errors[key] = `El campo «${field.title}» necesita al menos una opción`;
  }
  return errors;
}

/** What a firm's form pages may not hold: a field that is not in the form, or one listed twice. */
export function formPagesErrors(pages: readonly FormPage[]): Record<string, string> {
  const errors: Record<string, string> = {};
  const seen = new Set<string>();
  pages.forEach((page, index) => {
    for (const key of page.fields) {
      if (!(key in BUILT_IN_FIELDS)) errors[`formPages.${index}`] = `El campo «${key}» no existe en el formulario`;
      else if (seen.has(key)) errors[`formPages.${index}`] = `El campo «${BUILT_IN_FIELDS[key]?.title ?? key}» aparece en más de una página`;
      seen.add(key);
    }
  });
  return errors;
}

/** The built-in fields with a firm's overrides applied (overrides that break a locked field are ignored: they were refused on save). */
export function effectiveFields(overrides: FieldOverrides): Record<string, FormField> {
  const fields = builtInFields();
  for (const [key, override] of Object.entries(overrides)) {
    const field = fields[key];
    if (field === undefined) continue;
    const safe = field.locked === true ? { title: override.title } : override;
    for (const [name, value] of Object.entries(safe)) if (value !== undefined) Object.assign(field, { [name]: value });
  }
  return fields;
}

/** The firm's effective form (spec §3 Form definition). */
export function effectiveDefinition(form: { title: string | null; url: string | null; logo: string | null; formPages: readonly FormPage[] | null; overrides: FieldOverrides }): FormDefinition {
  return {
    flowId: ALTAS_FLOW_ID,
    title: form.title ?? 'Alta de trabajador',
    url: form.url,
    logo: form.logo,
    fieldsOrder: [...BUILT_IN_FIELDS_ORDER],
    fields: effectiveFields(form.overrides),
    defaultFormPages: copyOf(form.formPages === null || form.formPages.length === 0 ? [...DEFAULT_FORM_PAGES] : [...form.formPages]),
  };
}
