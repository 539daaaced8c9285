import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';
import type { Database } from './schema.ts';
import * as accounts from './migrations/0001-accounts.ts';
import * as authHardening from './migrations/0002-auth-hardening.ts';
import * as applogBudget from './migrations/0003-applog-budget.ts';
import * as flows from './migrations/0004-flows.ts';
import * as flowlogCounts from './migrations/0005-flowlog-counts.ts';
import * as flowlogTiebreakIndexes from './migrations/0006-flowlog-tiebreak-indexes.ts';
import * as machines from './migrations/0007-machines.ts';
import * as deviceRuns from './migrations/0008-device-runs.ts';
import * as uploadInspection from './migrations/0009-upload-inspection.ts';
import * as fileRetention from './migrations/0010-file-retention.ts';
import * as runReservations from './migrations/0011-run-reservations.ts';
import * as flowlogRobotIndex from './migrations/0012-flowlog-robot-index.ts';
import * as fie from './migrations/0013-fie.ts';
import * as altas from './migrations/0014-altas.ts';
import * as notifications from './migrations/0015-notifications.ts';
import * as mail from './migrations/0016-mail.ts';
import * as billingSupport from './migrations/0017-billing-support.ts';
import * as fieImports from './migrations/0018-fie-imports.ts';
import * as billingPaymentFailedMail from './migrations/0019-billing-payment-failed-mail.ts';
import * as documents from './migrations/0020-documents.ts';
import * as documentManagerIndexes from './migrations/0021-document-manager-indexes.ts';
import * as macros from './migrations/0022-macros.ts';
import * as firmMailConfigs from './migrations/0023-firm-mail-configs.ts';
import * as fiePartes from './migrations/0024-fie-partes.ts';
import * as fieSortNames from './migrations/0024-fie-sort-names.ts';
import * as altasManualRegistration from './migrations/0025-altas-manual-registration.ts';
import * as storedFilesRunOutputsIndex from './migrations/0026-stored-files-run-outputs-index.ts';

/**
 * Migrations are listed here rather than read from a folder, so they work the same under tsx,
 * Vitest and a bundle. Names sort in the order they run; append new ones at the end.
 */
const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-auth-hardening': authHardening,
  '0003-applog-budget': applogBudget,
  '0004-flows': flows,
  '0005-flowlog-counts': flowlogCounts,
  '0006-flowlog-tiebreak-indexes': flowlogTiebreakIndexes,
  '0007-machines': machines,
  '0008-device-runs': deviceRuns,
  '0009-upload-inspection': uploadInspection,
  '0010-file-retention': fileRetention,
  '0011-run-reservations': runReservations,
  '0012-flowlog-robot-index': flowlogRobotIndex,
  '0013-fie': fie,
  '0014-altas': altas,
  '0015-notifications': notifications,
  '0016-mail': mail,
  '0017-billing-support': billingSupport,
  '0018-fie-imports': fieImports,
  '0019-billing-payment-failed-mail': billingPaymentFailedMail,
  '0020-documents': documents,
  '0021-document-manager-indexes': documentManagerIndexes,
  '0022-macros': macros,
  '0023-firm-mail-configs': firmMailConfigs,
  '0024-fie-partes': fiePartes,
  '0024-fie-sort-names': fieSortNames,
  '0025-altas-manual-registration': altasManualRegistration,
  '0026-stored-files-run-outputs-index': storedFilesRunOutputsIndex,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  // Unordered: migrations written side by side (0002 landed after 0003) must still apply to a
  // database that already ran the later number; each one touches its own tables and columns.
  const { error, results } = await new Migrator({ db, provider, allowUnorderedMigrations: true }).migrateToLatest();
  const failed = results?.find((result) => result.status === 'Error');
  if (error || failed) {
    const reason = error instanceof Error ? error.message : String(error ?? failed?.migrationName);
    throw new Error(`La migración de la base de datos ha fallado: ${reason}`, { cause: error });
  }
}
