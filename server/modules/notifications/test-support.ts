import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { LemaEnvio, LemaRealizada, NotificationsPage } from '#shared/api/notifications.ts';
import { notificationsPaths } from '#shared/api/notifications.ts';
import type { Database } from '../../db/schema.ts';
import { registerUser, type CookieJar, type TestServer } from '../../test/harness.ts';
import { DeviceClient, linkPc } from '../devices/test-support.ts';
import { certificate, machineHash, sync } from '../machines/test-support.ts';

/** The notifications module's API tests' fixtures: a firm with a linked PC and its certificates, LEMA items. */

export const NOTIFICATION_TABLES: (keyof Database)[] = ['dehu_watched_certificates', 'dehu_notifications', 'dehu_documents'];
/** 11:00 in Madrid (CET). */
export const NOW = new Date('2026-03-10T10:00:00.000Z');
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');
/** A Windows program's first bytes ('MZ' ... 'PE'). */
export const EXE = Buffer.concat([Buffer.from('4d5a90000300000004000000ffff0000b800000000000000400000000000000000000000000000000000000000000000000000000000000000000000800000000e1fba0e00b409cd21b8014ccd21546869732070726f6772616d2063616e6e6f742062652072756e20696e20444f53206d6f64652e0d0d0a2400000000000000504500004c010300', 'hex'), Buffer.alloc(200)]);

/** A mutable clock the server reads (startTestServer({ now: clock.now })). */
export class Clock {
  constructor(public current: Date = NOW) {}
  now = (): Date => new Date(this.current);
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface TestFirm {
  jar: CookieJar;
  device: DeviceClient;
  machineId: string;
  /** Two certificates synced on the firm's PC. */
  fingerprints: [string, string];
}

/** A firm (one user) with a linked PC that synced two certificates. */
export async function firmWithPc(server: TestServer, email: string, pc: string, names: [string, string] = ['ANA GARCÍA', 'TALLERES ORTEGA SL']): Promise<TestFirm> {
  const jar = await registerUser(server.app, email);
  const link = await linkPc(jar, pc);
  const certificates = names.map((name) => certificate(`${name} ${pc}`, 300, NOW));
  await sync(jar, `PC ${pc}`, { machineHashCode: machineHash(pc), digitalCertificates: certificates });
  return {
    jar,
    device: new DeviceClient(server, link.deviceToken),
    machineId: link.machine._id,
    fingerprints: [certificates[0]?.fingerprint ?? '', certificates[1]?.fingerprint ?? ''],
  };
}

let sequence = 0;

/** A Localiza item; the identifier is unique unless given. */
export function envio(overrides: Partial<LemaEnvio> = {}): LemaEnvio {
  sequence += 1;
  return {
    identificador: `N-${sequence}-${randomUUID().slice(0, 8)}`,
    codigoOrigen: 1,
    concepto: 'Requerimiento de información',
    descripcion: null,
    organismoEmisor: { codigo: 'E04921901', nombre: 'Agencia Estatal de Administración Tributaria' },
    organismoEmisorRaiz: { codigo: 'E00003301', nombre: 'Ministerio de Hacienda' },
    fechaPuestaDisposicion: '2026-03-05T09:30:00+01:00',
    tipoEnvio: 2,
    vinculo: 1,
    titular: { nombre: 'ANA GARCÍA LÓPEZ', nif: '12345678Z' },
    metadatosPublicos: null,
    codigoProcedimiento: 'G322',
    ...overrides,
  };
}

export function realizada(item: LemaEnvio, overrides: Partial<LemaRealizada> = {}): LemaRealizada {
  return { ...item, estado: 'ACEPTADA', receptor: { nombre: 'ANA GARCÍA LÓPEZ', nif: '12345678Z' }, csvResguardo: 'CSV-123', ...overrides };
}

export async function upsert(device: DeviceClient, fingerprint: string, pendientes: LemaEnvio[], realizadas: LemaRealizada[] = []): Promise<{ added: number; updated: number }> {
  const response = await device.post(notificationsPaths.robotUpsert, { fingerprint, pendientes, realizadas });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { added: number; updated: number };
}

export async function page(jar: CookieJar, query = ''): Promise<NotificationsPage> {
  const response = await jar.get(`${notificationsPaths.list}${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as NotificationsPage;
}

/** One file in the field `file`. */
export function multipartFile(filename: string, data: Buffer): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----dehu${randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
