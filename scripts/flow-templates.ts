/**
 * Writes the template workbooks the built-in flows offer as 'Descargar plantilla'
 * (resources/flows/<id>/plantilla.xlsx). Run `tsx scripts/flow-templates.ts` after changing one here;
 * flow-templates.test.ts fails while a committed file differs from what this script would write.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as XLSX from 'xlsx';

interface TemplateSheet {
  name: string;
  rows: readonly (readonly string[])[];
}

export interface FlowTemplate {
  /** Path from the repository root. */
  path: string;
  sheets: readonly TemplateSheet[];
}

export const FLOW_TEMPLATES: readonly FlowTemplate[] = [
  {
    path: 'resources/flows/validar-identificadores/plantilla.xlsx',
    sheets: [
      { name: 'Trabajadores', rows: [['Nombre', 'Apellidos', 'NIF/NIE', 'NAF', 'IBAN', 'CCC']] },
      {
        name: 'Instrucciones',
        rows: [
          ['Rellena una fila por trabajador en la hoja Trabajadores (la primera hoja es la que se comprueba).'],
          ['NIF/NIE: 12345678Z o X1234567L. NAF: 12 cifras. IBAN: ES y 22 cifras. CCC: 11 cifras.'],
          ['Escribe el NAF y el CCC como texto (o con un apóstrofo delante) para que Excel no quite los ceros a la izquierda.'],
          ['Puedes dejar celdas vacías: se marcan como Vacío y no cuentan como error.'],
        ],
      },
    ],
  },
  {
    path: 'resources/flows/comprobar-altas-red/plantilla.xlsx',
    sheets: [
      {
        name: 'Altas',
        rows: [[
          'Tipo de documento', 'Documento', 'NAF', 'CCC', 'Nombre', 'Primer apellido', 'Segundo apellido', 'Sexo',
          'Fecha de nacimiento', 'Fecha de alta', 'Tipo de contrato', 'Grupo de cotización', 'Coeficiente de parcialidad',
        ]],
      },
      {
        name: 'Instrucciones',
        rows: [
          ['Columna', 'Qué escribir'],
          ['Tipo de documento', '1 = DNI/NIF, 2 = pasaporte, 6 = NIE'],
          ['Documento', '12345678Z, X1234567L o el número del pasaporte'],
          ['NAF', '12 cifras, como texto para conservar los ceros (081234567869)'],
          ['CCC', '11 cifras del código cuenta de cotización, como texto (08123456774)'],
          ['Nombre', 'Como mucho 15 caracteres: letras, espacios y guiones'],
          ['Primer apellido / Segundo apellido', 'Como mucho 20 caracteres cada uno; el segundo puede quedar vacío'],
          ['Sexo', 'H o M'],
          ['Fecha de nacimiento', 'dd/mm/aaaa; al menos 16 años en la fecha de alta'],
          ['Fecha de alta', 'dd/mm/aaaa; desde hoy hasta 60 días después'],
          ['Tipo de contrato', 'Código de 3 cifras (100, 189, 200, 401, 502...)'],
          ['Grupo de cotización', 'Del 1 al 11'],
          ['Coeficiente de parcialidad', 'Solo contratos a tiempo parcial (2xx y 5xx): de 1 a 999 milésimas (500 = media jornada)'],
        ],
      },
    ],
  },
];

function sheetOf({ rows }: TemplateSheet): XLSX.WorkSheet {
  const sheet = XLSX.utils.aoa_to_sheet(rows.map((row) => [...row]));
  const columns = Math.max(...rows.map((row) => row.length));
  sheet['!cols'] = Array.from({ length: columns }, (_, column) => ({
    wch: Math.min(100, Math.max(14, ...rows.map((row) => (row[column] ?? '').length + 2))),
  }));
  return sheet;
}

export function templateWorkbook(template: FlowTemplate): Uint8Array {
  const workbook = XLSX.utils.book_new();
  for (const sheet of template.sheets) XLSX.utils.book_append_sheet(workbook, sheetOf(sheet), sheet.name);
  const written: ArrayBuffer = XLSX.write(workbook, { type: 'array', bookType: 'xlsx', compression: true });
  return new Uint8Array(written);
}

/** The rows of every sheet of a workbook, to compare a committed template with the wanted one. */
export function workbookRows(data: Uint8Array): Record<string, string[][]> {
  const workbook = XLSX.read(data, { type: 'array' });
  return Object.fromEntries(
    workbook.SheetNames.map((name) => {
      const sheet = workbook.Sheets[name];
      return [name, sheet ? XLSX.utils.sheet_to_json<string[]>(sheet, { header: 1, raw: false, defval: '' }) : []];
    }),
  );
}

async function main(): Promise<void> {
  const root = fileURLToPath(new URL('..', import.meta.url));
  for (const template of FLOW_TEMPLATES) {
    await writeFile(`${root}${template.path}`, templateWorkbook(template));
    console.log(`Escrito ${template.path}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
