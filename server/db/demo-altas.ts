import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ALTAS_FLOW_ID, FORM_URL_PREFIX, type CompanyGroup, type FieldsValues } from '#shared/api/altas.ts';
import { submissionTitle } from '#shared/altas/index.ts';
import type { Database } from './schema.ts';

/**
 * The demo account's altas (issue 23): its form at /form/flows/demo, one company with two CCCs and two
 * groups, and three workers' altas at each step of the chain: waiting for RED, refused by RED (a fatal
 * #DIL), and registered in RED and A3. Names are plainly made up; NIF, NAF and CCC pass their checks.
 */

const DAY_MS = 86_400_000;

export const DEMO_ALTAS_COMPANY = 'Hostelería Levante S.L.';
export const DEMO_ALTAS_SLUG = 'demo';
export const DEMO_ALTAS_CCC = [
  { label: 'Restaurante Valencia', key: '46111111177' },
  { label: 'Cafetería Alicante', key: '46222222253' },
] as const;
export const DEMO_DIL_ERROR = '#DIL 3251: EL TRABAJADOR YA FIGURA EN ALTA EN ESTE CODIGO DE CUENTA DE COTIZACION EN LA FECHA INDICADA';

const CAMARERO_KEY = '6b0f7a2c-3d4e-4f5a-8b6c-7d8e9f0a1b2c';
const COCINERO_KEY = '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f';

const GROUPS: CompanyGroup[] = [
  {
    key: CAMARERO_KEY,
    text: 'Camarero/a',
    fieldsValues: { Jornada: 'parcial', 'Tipo Contrato*': '502', 'Coeficiente Parcialidad': '500', 'Grupo Cotización': '10', 'Convenio Colectivo': '46000805011981', 'CN Ocupación': '5120', 'Categoría Profesional': 'Camarero/a' },
  },
  {
    key: COCINERO_KEY,
    text: 'Cocinero/a',
    fieldsValues: { Jornada: 'completa', 'Tipo Contrato*': '100', 'Grupo Cotización': '08', 'Convenio Colectivo': '46000805011981', 'CN Ocupación': '5110', 'Categoría Profesional': 'Cocinero/a' },
  },
];

interface DemoAlta {
  groupKey: string;
  daysAgo: number;
  worker: FieldsValues;
  state: 'pending' | 'refused' | 'registered';
}

const DEMO_ALTAS: readonly DemoAlta[] = [
  {
    groupKey: CAMARERO_KEY,
    daysAgo: 1,
    state: 'pending',
    worker: { nombre: 'Marta', PrimerApellido: 'Demo', SegundoApellido: 'Ejemplo', 'Tipo de documento': '1', NIF: '23456781R', NAF: '461023456740', Sexo: '2', 'Fecha Nacimiento': '1998-03-14', CCC: '46111111177' },
  },
  {
    groupKey: COCINERO_KEY,
    daysAgo: 3,
    state: 'refused',
    worker: { nombre: 'Jorge', PrimerApellido: 'Prueba', SegundoApellido: 'Ficticio', 'Tipo de documento': '1', NIF: '45678912S', NAF: '462034567865', Sexo: '1', 'Fecha Nacimiento': '1985-11-02', CCC: '46222222253' },
  },
  {
    groupKey: CAMARERO_KEY,
    daysAgo: 9,
    state: 'registered',
    worker: { nombre: 'Nuria', PrimerApellido: 'Muestra', SegundoApellido: '', 'Tipo de documento': '1', NIF: '56789123F', NAF: '033045678902', Sexo: '2', 'Fecha Nacimiento': '2001-07-21', CCC: '46111111177' },
  },
];

const isoDay = (date: Date) => date.toISOString().slice(0, 10);

export async function seedDemoAltas(db: Kysely<Database>, owner: { userId: string; groupId: string }, now: Date): Promise<void> {
  const at = now.toISOString();
  const formId = randomUUID();
  await db
    .insertInto('altas_forms')
    .values({
      id: formId, group_id: owner.groupId, flow_id: ALTAS_FLOW_ID, title: 'Altas de trabajadores', url: FORM_URL_PREFIX + DEMO_ALTAS_SLUG, logo_id: null, logo_key: null, logo_mime: null,
      configuration_name: 'Alta de trabajador', form_pages: null, field_overrides: '{}', created_at: at, updated_at: at,
    })
    .execute();
  const clientUserId = randomUUID();
  await db.insertInto('altas_client_users').values({ id: clientUserId, group_id: owner.groupId, name: DEMO_ALTAS_COMPANY, email: 'rrhh@hosteleria-levante.example', password_hash: null, created_at: at, updated_at: at }).execute();
  const companyId = randomUUID();
  await db
    .insertInto('altas_companies')
    .values({
      id: companyId, group_id: owner.groupId, client_user_id: clientUserId, form_id: formId, name: DEMO_ALTAS_COMPANY, email: 'rrhh@hosteleria-levante.example',
      ccc_list: JSON.stringify(DEMO_ALTAS_CCC), groups: JSON.stringify(GROUPS), credentials_enabled: 0, email_sent_at: null, open: 1, removed: 0, created_at: at, updated_at: at,
    })
    .execute();

  for (const alta of DEMO_ALTAS) {
    const received = new Date(now.getTime() - alta.daysAgo * DAY_MS);
    const group = GROUPS.find((candidate) => candidate.key === alta.groupKey);
    const values: FieldsValues = { ...group?.fieldsValues, ...alta.worker, 'Fecha Alta': isoDay(new Date(received.getTime() + 2 * DAY_MS)) };
    const registeredAt = new Date(received.getTime() + DAY_MS).toISOString();
    const registered = alta.state === 'registered';
    await db
      .insertInto('altas_submissions')
      .values({
        id: randomUUID(), group_id: owner.groupId, company_id: companyId, flow_id: ALTAS_FLOW_ID, group_key: alta.groupKey, title: submissionTitle(values, DEMO_ALTAS_COMPANY),
        fields_values: JSON.stringify(values), created_by: 'client', created_by_user: null, created_at: received.toISOString(), updated_at: received.toISOString(),
        red_at: registered ? registeredAt : null,
        red_resolution: registered ? 'RESOLUCION SOBRE RECONOCIMIENTO DE ALTA: ALTA ADMITIDA' : null,
        a3_at: registered ? registeredAt : null,
        company_notified_at: registered ? registeredAt : null,
        afi_file: null,
        last_error: alta.state === 'refused' ? DEMO_DIL_ERROR : null,
        removed: 0,
      })
      .execute();
  }
}
