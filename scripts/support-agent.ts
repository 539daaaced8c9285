/**
 * The server's support team: `npm run support:agent -- grant|revoke <email>` (or
 * `npx tsx scripts/support-agent.ts grant|revoke <email>`) makes an existing account a support agent,
 * or stops it being one, on the database the server is configured with (DATABASE_URL or DATA_DIR,
 * as server/env.ts reads them). Agents answer every firm's tickets from the support desk.
 */
import type { Kysely } from 'kysely';
import { connectDatabase } from '../server/db/connect.ts';
import type { Database } from '../server/db/schema.ts';
import { configFromEnv } from '../server/env.ts';

const USAGE = 'Uso: npm run support:agent -- grant|revoke <email>';

export type AgentChange = 'granted' | 'revoked' | 'unchanged' | 'no-account';

/** Grants or revokes the support role of the account with this email (emails are kept lower-case). */
export async function setSupportAgent(db: Kysely<Database>, email: string, grant: boolean): Promise<AgentChange> {
  const user = await db.selectFrom('users').select(['id', 'support_agent']).where('email', '=', email.trim().toLowerCase()).executeTakeFirst();
  if (!user) return 'no-account';
  if (Number(user.support_agent) === (grant ? 1 : 0)) return 'unchanged';
  await db.updateTable('users').set({ support_agent: grant ? 1 : 0 }).where('id', '=', user.id).execute();
  return grant ? 'granted' : 'revoked';
}

function report(change: AgentChange, email: string, grant: boolean): string {
  switch (change) {
    case 'granted':
      return `${email} ya es del equipo de soporte: puede contestar las consultas de todas las empresas.`;
    case 'revoked':
      return `${email} ya no es del equipo de soporte.`;
    case 'unchanged':
      return grant ? `${email} ya era del equipo de soporte; nada que cambiar.` : `${email} no era del equipo de soporte; nada que cambiar.`;
    case 'no-account':
      return `No hay ninguna cuenta con el email ${email}. La persona debe registrarse antes.`;
  }
}

async function main(args: string[]): Promise<number> {
  const [action, email] = args;
  if ((action !== 'grant' && action !== 'revoke') || !email) {
    console.error(USAGE);
    return 2;
  }
  const grant = action === 'grant';
  const db = connectDatabase(configFromEnv(process.env).server.database);
  try {
    const change = await setSupportAgent(db, email, grant);
    const message = report(change, email.trim().toLowerCase(), grant);
    if (change === 'no-account') console.error(message);
    else console.log(message);
    return change === 'no-account' ? 1 : 0;
  } finally {
    await db.destroy();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`No se ha podido cambiar el equipo de soporte: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
