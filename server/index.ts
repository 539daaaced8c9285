import { mkdirSync } from 'node:fs';
import { buildApp } from './app.ts';
import { configFromEnv } from './env.ts';
import { openRotatingLog } from './log-file.ts';

/** Entry point: config from env, migrate and seed, listen, and close cleanly on SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const { server, listen, dataDir, logFile } = configFromEnv(process.env);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  // LOG_FILE: size-rotated files instead of stdout, so a busy server cannot fill the disk with its log.
  const log = logFile ? await openRotatingLog(logFile) : null;

  // buildApp migrates and seeds; the demo account only outside production (checked in the seed too),
  // and not when DEMO_ACCOUNT=0 (a staging server, or a second test server that needs no demo robots).
  const app = await buildApp({ ...server, ...(log && { logStream: log.stream }), demoAccount: process.env.NODE_ENV !== 'production' && process.env.DEMO_ACCOUNT !== '0' });

  await app.listen({ port: listen.port, host: listen.host });
  app.log.info(`AutoAsesor escuchando en http://${listen.host}:${listen.port} (web: ${server.publicUrl})`);

  let closing = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} recibido: cerrando el servidor`);
    app.close().then(
      // Flush the log file's buffer before exiting, or the last lines are lost.
      async () => {
        await log?.close();
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'Error al cerrar el servidor');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error('No se ha podido arrancar el servidor:', error);
  process.exit(1);
});
