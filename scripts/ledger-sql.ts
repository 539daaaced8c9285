/**
 * Every firm's used slans beside the sum of its ledger lines: a run is charged in one transaction with
 * its line, so they never differ. Read by `npm run sweep` (SQLite) and `npm run scaleout` (PostgreSQL).
 */
export const LEDGER_AGAINST_USAGE_SQL =
  'select s.group_id as "groupId", s.used_slans as "usedSlans", coalesce((select sum(amount) from credit_ledger l where l.group_id = s.group_id), 0) as ledger from subscriptions s';
