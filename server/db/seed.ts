import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { registerAccount } from '../modules/users/service.ts';
import { seedDemoAltas } from './demo-altas.ts';
import { seedDemoFie } from './demo-fie.ts';
import { seedDemoMachines } from './demo-machines.ts';
import { seedDemoNotifications } from './demo-notifications.ts';
import type { DemoRobotRun } from './demo-files.ts';
import type { FileStorage } from '../modules/storage/service.ts';
import { demoRunsCost, seedDemoRuns } from './demo-runs.ts';

/** The plans a group can be on. The trial is what every new registration starts with. */
const PLANS = [
  { ref: 'trial', name: 'Prueba', usage_limit: 500, base_price: 0, extra_usage_price: 0, trial_days: 14 },
  { ref: 'basic', name: 'Básico', usage_limit: 2_000, base_price: 49, extra_usage_price: 0.03, trial_days: null },
  { ref: 'pro', name: 'Profesional', usage_limit: 10_000, base_price: 149, extra_usage_price: 0.02, trial_days: null },
] as const;

// Fixed ids so several servers seeding one Postgres at once insert each note only once.
const RELEASE_NOTES = [
  {
    id: '6f1d2c3a-0b1e-4c55-9a37-1f0e6b2d9a01',
    created_at: '2025-01-13T08:00:00.000Z',
    content: [
      '## AutoAsesor 0.1',
      '',
      'Bienvenido a la nueva versión de AutoAsesor.',
      '',
      '- **Cuentas de equipo**: cada asesoría tiene su grupo, con su propia configuración.',
      '- **Sesiones más seguras**: la sesión se renueva sola y se cierra si detectamos un uso indebido.',
      '- **Recuperar contraseña** desde la pantalla de acceso, con un enlace válido durante una hora.',
    ].join('\n'),
  },
  {
    id: '6f1d2c3a-0b1e-4c55-9a37-1f0e6b2d9a02',
    created_at: '2025-01-20T08:00:00.000Z',
    content: [
      '## Periodo de prueba',
      '',
      'Las cuentas nuevas empiezan con el plan **Prueba**: 500 slans durante 14 días para probar los robots.',
      '',
      'Consulta tu consumo en **Pagos** y elige el plan *Básico* o *Profesional* cuando quieras.',
    ].join('\n'),
  },
];

export const DEMO_ACCOUNT = {
  email: 'demo@autoasesor.es',
  password: 'Demo1234!',
  name: 'Laura Gómez',
  groupName: 'Asesoría Demo',
} as const;
/**
 * DEMO_ACCOUNT.password hashed once (argon2id, server/modules/auth/passwords.ts's options): hashing it
 * at every first start took 50-200 ms of it. The password is public; the account never exists in production.
 */
const DEMO_PASSWORD_HASH = '$argon2id$v=19$m=19456,p=1,t=2$dQuMcEzC5WmszHTYKhasnw$W7r3Xvd6AFppytp7MHarzjmUib/IFD8xGa2nQ7NkADE';
/** The demo's monthly period renews in a week, so it began 21 to 24 days ago: before its oldest run (demo-runs.ts). */
const DEMO_DAYS_TO_RENEWAL = 7;
/** What the seeded runs were charged (server/db/demo-runs.ts): the usage the top bar and /payments show. */
export const DEMO_USED_SLANS = demoRunsCost();

/** Plans and release notes. Idempotent, and safe when several servers start together. */
export async function seedCatalog(db: Kysely<Database>, now: Date): Promise<void> {
  for (const plan of PLANS) {
    await db
      .insertInto('plans')
      .values({ id: randomUUID(), ...plan, created_at: now.toISOString() })
      .onConflict((conflict) => conflict.column('ref').doNothing())
      .execute();
  }
  for (const note of RELEASE_NOTES) {
    await db
      .insertInto('release_notes')
      .values({ ...note, active: 1 })
      .onConflict((conflict) => conflict.column('id').doNothing())
      .execute();
  }
}

/**
 * A demo account to try the app with, only on an empty database outside production. It is on a paid,
 * active plan with three weeks of runs in its history, and their charges are its used credits, so the
 * top bar, the status card, the usage bar and the history show the same figures. Its shared office PC
 * has certificates for the expiry radar (demo-machines.ts). Returns null when it was not created, or
 * the runs whose robots are to make their files (demo-files.ts).
 */
export async function seedDemoAccount(db: Kysely<Database>, now: Date, nodeEnv: string | undefined, storage?: FileStorage): Promise<DemoRobotRun[] | null> {
  if (nodeEnv === 'production') return null;
  const anyUser = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (anyUser) return null;
  return seedDemoData(db, now, storage);
}

async function seedDemoData(db: Kysely<Database>, now: Date, storage: FileStorage | undefined): Promise<DemoRobotRun[]> {
  const userId = await registerAccount(db, { ...DEMO_ACCOUNT, language: 'es' }, now, DEMO_PASSWORD_HASH);
  await db.updateTable('users').set({ email_validated: 1 }).where('id', '=', userId).execute();
  const { group_id: groupId } = await db.selectFrom('users').select('group_id').where('id', '=', userId).executeTakeFirstOrThrow();
  const { id: proPlanId } = await db.selectFrom('plans').select('id').where('ref', '=', 'pro').executeTakeFirstOrThrow();
  const periodEnd = new Date(now.getTime() + DEMO_DAYS_TO_RENEWAL * 24 * 60 * 60 * 1000).toISOString();
  await db
    .updateTable('subscriptions')
    .set({ plan_id: proPlanId, status: 'active', current_period_end: periodEnd, used_slans: DEMO_USED_SLANS, updated_at: now.toISOString() })
    .where('group_id', '=', groupId)
    .execute();
  const robotRuns = await seedDemoRuns(db, { userId, groupId }, now);
  await seedDemoMachines(db, { userId, groupId }, now);
  await seedDemoFie(db, { userId, groupId }, now);
  await seedDemoAltas(db, { userId, groupId }, now);
  // Its opened notification's PDFs go to storage (the document viewer); without storage, rows only.
  await seedDemoNotifications(db, { userId, groupId }, now, storage);
  return robotRuns;
}
