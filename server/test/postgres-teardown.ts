import { dropRunDatabases } from './test-databases.ts';

/**
 * Global setup of the vitest project 'server-pg': after its test processes have ended, drops the
 * databases their servers ran on (test-databases.ts keeps them for reuse while a process lives).
 */
export default function setup(): () => Promise<void> {
  return async () => {
    const url = process.env.TEST_DATABASE_URL;
    const runId = process.env.AUTOASESOR_TEST_RUN;
    if (url && runId) await dropRunDatabases(url, runId);
  };
}
