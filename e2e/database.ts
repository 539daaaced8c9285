import Database from 'better-sqlite3';

/**
 * Some states have no screen yet (group settings, usage that only robots consume), so tests set
 * them in the e2e server's database, as an operator would.
 */
export function withDatabase<T>(work: (db: Database.Database) => T): T {
  const file = process.env.E2E_DATABASE_FILE;
  if (!file) throw new Error('E2E_DATABASE_FILE is not set: run through playwright.config.ts (global setup).');
  const db = new Database(file);
  try {
    return work(db);
  } finally {
    db.close();
  }
}

function groupOf(db: Database.Database, email: string): string {
  return (db.prepare('select group_id from users where email = ?').get(email) as { group_id: string }).group_id;
}

export function setHiddenRoutes(email: string, hiddenRoutes: string[]): void {
  withDatabase((db) => {
    const groupId = groupOf(db, email);
    const { config } = db.prepare('select config from groups where id = ?').get(groupId) as { config: string };
    const updated = { ...(JSON.parse(config) as object), hidden_routes: hiddenRoutes };
    db.prepare('update groups set config = ? where id = ?').run(JSON.stringify(updated), groupId);
  });
}

export function setUsedCredits(email: string, usedSlans: number): void {
  withDatabase((db) => {
    db.prepare('update subscriptions set used_slans = ? where group_id = ?').run(usedSlans, groupOf(db, email));
  });
}

export function setSubscriptionStatus(email: string, status: 'active' | 'trialing' | 'canceled' | 'past_due'): void {
  withDatabase((db) => {
    db.prepare('update subscriptions set status = ? where group_id = ?').run(status, groupOf(db, email));
  });
}

/** The firm of `email` on a seeded plan ('basic', 'pro'), active: runs past a trial's 500 slans. */
export function setPlan(email: string, planRef: 'basic' | 'pro'): void {
  withDatabase((db) => {
    db.prepare("update subscriptions set plan_id = (select id from plans where ref = ?), status = 'active' where group_id = ?").run(planRef, groupOf(db, email));
  });
}

/** Puts a user in a colleague's firm directly (e2e/colleagues.spec.ts goes through the invitation instead). */
export function joinFirmOf(email: string, colleagueEmail: string): void {
  withDatabase((db) => {
    db.prepare('update users set group_id = ? where email = ?').run(groupOf(db, colleagueEmail), email);
  });
}

/** A group's runs of one flow as the server recorded them, newest first. */
export function runsOf(email: string, flowId: string): {
  id: string; state: string; result: string | null; launch_status: number | null; message: string | null; remote: number; output_folder: string | null;
  output_file_names: string | null; cost: number; reserved_cost: number; schedule_id: string | null; idempotency_key: string | null;
}[] {
  return withDatabase((db) =>
    db
      .prepare(
        `select id, state, result, launch_status, message, remote, output_folder, output_file_names, cost, reserved_cost, schedule_id, idempotency_key
         from flow_runs where group_id = ? and flow_id = ? order by created_at desc`,
      )
      .all(groupOf(db, email), flowId) as ReturnType<typeof runsOf>,
  );
}

/** Ledger debits of one run: a run is charged once at most. */
export function chargesOf(runId: string): number {
  return withDatabase((db) => (db.prepare('select count(*) as n from credit_ledger where run_id = ?').get(runId) as { n: number }).n);
}

/** Makes the user a member of the server's support team, as `npm run support:agent -- grant <email>` does. */
export function makeSupportAgent(email: string): void {
  withDatabase((db) => {
    db.prepare('update users set support_agent = 1 where email = ?').run(email);
  });
}
