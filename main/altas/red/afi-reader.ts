/**
 * Reads an AFI remittance back by the research's positions (external-systems §2.4), as a check of what
 * the writer made: every line 70 characters of latin1, the segments in their order (ETI first; EMP and RZS
 * open a company; TRA, AYN, FAB, then optional DAM and ODL per worker). Anything else throws, naming the line.
 * Positions are written out here on their own, not shared with the writer, so a slip in one shows.
 */

export interface AfiHeaderRead {
  syntax: string;
  version: string;
  programId: string;
  processVersion: string;
  authorizationKey: string;
  date: string;
  time: string;
  fileName: string;
  extension: string;
  priority: string;
  testIndicator: string;
  registryId: { year: string; month: string; series: string; sendNumber: string; ordinal: string };
}

export interface AfiWorkerRead {
  naf: string;
  ipfType: string;
  ipf: string;
  primerApellido: string;
  segundoApellido: string;
  nombre: string;
  action: string;
  situacion: string;
  fechaReal: string;
  grupoCotizacion: string;
  tipoContrato: string;
  coeficienteParcialidad: string;
  fechaNacimiento: string;
  sexo: string;
  /** DAM: fecha inicio contrato and coeficiente inicial, when present. */
  contractStart: string | null;
  initialCoefficient: string | null;
  /** ODL, when present. */
  convenio: string | null;
  ocupacion: string | null;
}

export interface AfiCompanyRead {
  regimen: string;
  ccc: string;
  cccRegimen: string;
  cccAgain: string;
  razonSocial: string;
  authorizationKey: string;
  workers: AfiWorkerRead[];
}

export interface AfiRemittanceRead {
  header: AfiHeaderRead;
  companies: AfiCompanyRead[];
}

const at = (line: string, start: number, end: number) => line.slice(start, end).trimEnd();

export function readAfi(bytes: Uint8Array): AfiRemittanceRead {
  const text = Buffer.from(bytes).toString('latin1');
  if (!text.endsWith('\n')) throw new Error('El fichero AFI no termina en fin de línea');
  const lines = text.replace(/\r?\n$/, '').split(/\r?\n/);
  lines.forEach((line, index) => {
    if (line.length !== 70) throw new Error(`Línea ${index + 1}: tiene ${line.length} caracteres, no 70`);
  });
  const [eti, ...rest] = lines;
  if (eti === undefined || !eti.startsWith('ETI')) throw new Error('Línea 1: el fichero AFI debe empezar por el segmento ETI');
  const header: AfiHeaderRead = {
    syntax: at(eti, 3, 7),
    version: at(eti, 7, 8),
    programId: at(eti, 8, 12),
    processVersion: at(eti, 12, 13),
    authorizationKey: at(eti, 13, 21),
    date: at(eti, 29, 37),
    time: at(eti, 37, 41),
    fileName: at(eti, 41, 49),
    extension: at(eti, 49, 52),
    priority: at(eti, 52, 53),
    testIndicator: at(eti, 53, 54),
    registryId: { year: at(eti, 54, 56), month: at(eti, 56, 58), series: at(eti, 58, 59), sendNumber: at(eti, 59, 64), ordinal: at(eti, 64, 68) },
  };
  if (header.syntax !== 'AFI9') throw new Error(`Línea 1: la sintaxis debe ser AFI9, no «${header.syntax}»`);

  const companies: AfiCompanyRead[] = [];
  let company: AfiCompanyRead | null = null;
  let worker: AfiWorkerRead | null = null;
  let expected: string[] = ['EMP'];
  rest.forEach((line, index) => {
    const number = index + 2;
    const tag = line.slice(0, 3);
    if (!expected.includes(tag)) throw new Error(`Línea ${number}: se esperaba ${expected.join(' o ')}, no ${tag}`);
    switch (tag) {
      case 'EMP':
        company = {
          regimen: at(line, 3, 7), ccc: at(line, 7, 18), cccRegimen: at(line, 38, 42), cccAgain: at(line, 42, 53),
          razonSocial: '', authorizationKey: '', workers: [],
        };
        companies.push(company);
        expected = ['RZS'];
        break;
      case 'RZS':
        company!.razonSocial = at(line, 5, 60);
        company!.authorizationKey = at(line, 60, 68);
        expected = ['TRA'];
        break;
      case 'TRA':
        worker = {
          naf: at(line, 3, 15), ipfType: at(line, 15, 16), ipf: at(line, 19, 33),
          primerApellido: '', segundoApellido: '', nombre: '', action: '', situacion: '', fechaReal: '', grupoCotizacion: '', tipoContrato: '',
          coeficienteParcialidad: '', fechaNacimiento: '', sexo: '', contractStart: null, initialCoefficient: null, convenio: null, ocupacion: null,
        };
        company!.workers.push(worker);
        expected = ['AYN'];
        break;
      case 'AYN':
        Object.assign(worker!, { primerApellido: at(line, 3, 23), segundoApellido: at(line, 23, 43), nombre: at(line, 43, 58) });
        expected = ['FAB'];
        break;
      case 'FAB':
        Object.assign(worker!, {
          action: at(line, 3, 6), situacion: at(line, 6, 8), fechaReal: at(line, 8, 16), grupoCotizacion: at(line, 16, 18),
          tipoContrato: at(line, 21, 24), coeficienteParcialidad: at(line, 26, 29), fechaNacimiento: at(line, 40, 48), sexo: at(line, 48, 49),
        });
        expected = ['DAM', 'ODL', 'TRA', 'EMP'];
        break;
      case 'DAM':
        Object.assign(worker!, { contractStart: at(line, 3, 11), initialCoefficient: at(line, 67, 70) });
        expected = ['ODL', 'TRA', 'EMP'];
        break;
      case 'ODL':
        Object.assign(worker!, { convenio: at(line, 3, 17), ocupacion: at(line, 23, 27) });
        expected = ['TRA', 'EMP'];
        break;
    }
  });
  if (companies.length === 0) throw new Error('El fichero AFI no tiene ninguna empresa (EMP)');
  if (!expected.includes('EMP')) throw new Error(`El fichero AFI termina a medias: falta ${expected.join(' o ')}`);
  return { header, companies };
}
