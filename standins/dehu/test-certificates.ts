/**
 * Test-only: options that make the DEHÚ stand-in trust the shared test CAs ('AC FNMT Usuarios' and
 * 'AC Representación', like the portal's) and fill the mailboxes of the e2e certificates' holders
 * (e2e/certificates.ts): ELENA RODRIGUEZ GARCIA (78816596N) and the company B12345674, whose
 * representative is PABLO MARTIN SANZ. The server certificate names 'localhost' (servername).
 */
import { portalOptions } from '../portal/test-certificates.ts';
import type { StandinDehuOptions } from './dehu.ts';
import type { StandinEnvio } from './mailbox.ts';

const DAY = 86_400_000;
const HOUR = 3_600_000;

const AEAT = { codigo: 'EA0028512', nombre: 'Agencia Estatal de Administración Tributaria' };
const HACIENDA = { codigo: 'E05068001', nombre: 'Ministerio de Hacienda' };
const TGSS = { codigo: 'EA0041785', nombre: 'Tesorería General de la Seguridad Social' };
const INCLUSION = { codigo: 'E05187001', nombre: 'Ministerio de Inclusión, Seguridad Social y Migraciones' };
const DGT = { codigo: 'EA0003048', nombre: 'Dirección General de Tráfico' };
const INTERIOR = { codigo: 'E00120801', nombre: 'Ministerio del Interior' };

const PERSON = { nif: '78816596N', nombre: 'ELENA RODRIGUEZ GARCIA' };
const COMPANY = { nif: 'B12345674', nombre: 'ASESORIA EJEMPLO SL' };

/** Realistic envíos put at disposal over the last 12 days before `now` (one past its 10 days, one comunicación). */
export function sampleEnvios(now: Date = new Date()): StandinEnvio[] {
  const at = (daysAgo: number, hour = 9) => new Date(now.getTime() - daysAgo * DAY - hour * HOUR);
  const metadata = (codigo: string) => Buffer.from(JSON.stringify({ codigoProcedimiento: codigo })).toString('base64');
  return [
    { identificador: 'N-AEAT-2026-000101', codigoOrigen: 1, titular: PERSON, concepto: 'Requerimiento de información', descripcion: 'Requerimiento de documentación, IRPF 2025', organismoEmisor: AEAT, organismoEmisorRaiz: HACIENDA, fechaPuestaDisposicion: at(1), tipoEnvio: 2, vinculo: 1, metadatosPublicos: metadata('GC27') },
    { identificador: 'N-AEAT-2026-000102', codigoOrigen: 1, titular: PERSON, concepto: 'Comunicación de inicio de procedimiento de comprobación limitada', organismoEmisor: AEAT, organismoEmisorRaiz: HACIENDA, fechaPuestaDisposicion: at(8), tipoEnvio: 2, vinculo: 1, anexos: [] },
    { identificador: 'N-DGT-2026-000103', codigoOrigen: 3, titular: PERSON, concepto: 'Notificación de denuncia en materia de tráfico', organismoEmisor: DGT, organismoEmisorRaiz: INTERIOR, fechaPuestaDisposicion: at(9, 2), tipoEnvio: 2, vinculo: 1 },
    { identificador: 'C-AEAT-2026-000104', codigoOrigen: 1, titular: PERSON, concepto: 'Comunicación de datos fiscales disponibles', organismoEmisor: AEAT, organismoEmisorRaiz: HACIENDA, fechaPuestaDisposicion: at(3), tipoEnvio: 1, vinculo: 1 },
    { identificador: 'N-TGSS-2026-000201', codigoOrigen: 2, titular: COMPANY, concepto: 'Providencia de apremio', descripcion: 'Deuda de cotizaciones, periodo 09/2026', organismoEmisor: TGSS, organismoEmisorRaiz: INCLUSION, fechaPuestaDisposicion: at(2), tipoEnvio: 2, vinculo: 1 },
    { identificador: 'N-AEAT-2026-000202', codigoOrigen: 1, titular: COMPANY, concepto: 'Requerimiento de información', descripcion: 'Modelo 303, tercer trimestre 2026', organismoEmisor: AEAT, organismoEmisorRaiz: HACIENDA, fechaPuestaDisposicion: at(7), tipoEnvio: 2, vinculo: 1 },
    { identificador: 'N-TGSS-2026-000203', codigoOrigen: 2, titular: COMPANY, concepto: 'Reclamación de deuda', organismoEmisor: TGSS, organismoEmisorRaiz: INCLUSION, fechaPuestaDisposicion: at(12), tipoEnvio: 2, vinculo: 1 },
  ];
}

/** The stand-in's options for tests and serve.ts: the portal's server certificate and test CAs, and the sample mailboxes. */
export function dehuOptions(now: Date = new Date()): StandinDehuOptions {
  const { caCertificates, serverKey, serverCert } = portalOptions();
  return { caCertificates, serverKey, serverCert, envios: sampleEnvios(now) };
}
