import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { altasPaths, type ClientCompany, type FieldsValues } from '#shared/api/altas.ts';
import type { Database } from '../../db/schema.ts';
import { CookieJar, registerUser, type TestServer } from '../../test/harness.ts';

/** Fixtures and request helpers of the altas API tests. */

export const ALTAS_TABLES: (keyof Database)[] = ['altas_forms', 'altas_client_users', 'altas_companies', 'altas_submissions', 'altas_client_sessions', 'altas_files'];

/** Valid CCCs (last two digits = first nine mod 97). */
export const CCC_A = '28123456742';
export const CCC_B = '46111111177';
export const GROUP_KEY = '3f1c0a9e-1b2c-4d5e-8f90-1234567890ab';
export const OTHER_GROUP_KEY = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d';

/** What a company types for a worker. */
export const CLIENT_VALUES: FieldsValues = {
  nombre: 'Lucía',
  PrimerApellido: 'García',
  SegundoApellido: 'Ruiz',
  'Tipo de documento': '1',
  NIF: '12345678Z',
  NAF: '281234567840',
  email: 'lucia@example.com',
  Sexo: '2',
  'Fecha Nacimiento': '1990-05-31',
  'Fecha Alta': '2026-12-01',
  CCC: CCC_A,
};

/** The advisor's values of a 'Camarero/a' group. */
export const GROUP_VALUES: FieldsValues = {
  Jornada: 'parcial',
  'Tipo Contrato*': '200',
  'Coeficiente Parcialidad': '500',
  'Grupo Cotización': '07',
  'Convenio Colectivo': '46000805011981',
  'CN Ocupación': '5120',
};

/** A PNG's first bytes (file-type knows it by them). */
export const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n');

type Part = { name: string; value: string } | { name: string; filename: string; data: Buffer | string };

export function multipart(parts: readonly Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----altas${randomUUID()}`;
  const chunks = parts.flatMap((part) =>
    'value' in part
      ? [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`)]
      : [Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: image/png\r\n\r\n`), Buffer.from(part.data), Buffer.from('\r\n')],
  );
  return { payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export function saveSettings(jar: CookieJar, fields: { title: string; url: string }, logo?: { filename: string; data: Buffer | string }) {
  const { payload, headers } = multipart([{ name: 'title', value: fields.title }, { name: 'url', value: fields.url }, ...(logo ? [{ name: 'logo', ...logo }] : [])]);
  return jar.request({ method: 'PUT', url: altasPaths.formSettings, payload, headers });
}

export async function createCompany(jar: CookieJar, input: { name: string; email: string; cccList?: { label: string; key: string }[] }): Promise<ClientCompany> {
  const response = await jar.post(altasPaths.createClient, { cccList: [{ label: 'Centro', key: CCC_A }], ...input });
  expect(response.statusCode, response.body).toBe(201);
  return response.json<ClientCompany>();
}

export const groupsPath = (companyId: string) => altasPaths.groups.replace(':id', companyId).replace(':field', 'groups');

export async function addGroup(jar: CookieJar, companyId: string, key = GROUP_KEY, text = 'Camarero/a', fieldsValues: FieldsValues = GROUP_VALUES): Promise<ClientCompany> {
  const response = await jar.post(groupsPath(companyId), { [key]: { text, fieldsValues } });
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ClientCompany>();
}

/** A firm with its form at /form/flows/<slug> and one company with a group. */
export async function firmWithCompany(server: TestServer, advisorEmail: string, slug: string, companyEmail: string) {
  const advisor = await registerUser(server.app, advisorEmail);
  const settings = await saveSettings(advisor, { title: 'Altas de trabajadores', url: slug });
  expect(settings.statusCode, settings.body).toBe(200);
  const company = await createCompany(advisor, { name: `Empresa de ${slug}`, email: companyEmail });
  await addGroup(advisor, company._id);
  return { advisor, company };
}

/** Sends the company its credentials and reads the password off the logged message. */
export async function sendCredentials(server: TestServer, advisor: CookieJar, companyId: string): Promise<string> {
  const response = await advisor.put(altasPaths.sendEmail.replace(':id', companyId), {});
  expect(response.statusCode, response.body).toBe(200);
  const message = server.mailedMessages('form_credentials').at(-1);
  const password = /Contraseña: (\S+)/.exec(message?.text ?? '')?.[1];
  if (!password) throw new Error('no se ha enviado la contraseña');
  return password;
}

export async function companySignIn(server: TestServer, slug: string, email: string, password: string): Promise<CookieJar> {
  const jar = new CookieJar(server.app);
  const response = await jar.post(altasPaths.publicAuth, { url: `/form/flows/${slug}`, email, password });
  expect(response.statusCode, response.body).toBe(200);
  return jar;
}

export const publicFormPath = (slug: string) => altasPaths.publicForm.replace(':id', slug);
export const publicFilesPath = (slug: string) => altasPaths.publicFiles.replace(':id', slug);

export function uploadFile(jar: CookieJar, slug: string, filename: string, data: Buffer | string) {
  const { payload, headers } = multipart([{ name: 'file', filename, data }]);
  return jar.request({ method: 'POST', url: publicFilesPath(slug), payload, headers });
}

/** The files in the test server's storage folder (relative paths): what refused uploads must not leave. */
export async function storedFiles(server: TestServer): Promise<string[]> {
  const entries = await readdir(join(server.dir, 'storage'), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}
