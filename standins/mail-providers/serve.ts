/**
 * Starts the mail providers' stand-in on its own (manual tries, e2e in another process) and prints one
 * JSON line on stdout:
 *
 *   { url, env: { MAIL_GOOGLE_*, MAIL_MICROSOFT_* }, accounts: { google, microsoft } }
 *
 * and the same variables as `export` lines on stderr, for a person to paste. The server and the desktop
 * agent read those variables (server/modules/mail/providers.ts, main/mail/settings.ts), so they reach
 * this stand-in instead of Google and Microsoft.
 *
 * Usage: npx tsx standins/mail-providers/serve.ts
 *   PORT        the port (default 8095)
 *   PUBLIC_URL  the app's public address(es), comma-separated: each gets <PUBLIC_URL>/oauth-response as
 *               the web clients' registered redirect (default http://localhost:8081, the server's own default)
 * Runs until SIGINT or SIGTERM. Test-only: never part of the app.
 */
import { mailProvidersEnv } from './env.ts';
import { startMailProviders } from './providers.ts';

const port = Number(process.env.PORT ?? 8095);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`serve.ts: PORT=${process.env.PORT} is not a port number\n`);
  process.exit(1);
}
const redirectUris = (process.env.PUBLIC_URL ?? 'http://localhost:8081')
  .split(',')
  .map((url) => url.trim().replace(/\/+$/, ''))
  .filter((url) => url !== '')
  .map((url) => `${url}/oauth-response`);

const clients = {
  googleWeb: { clientId: 'autoasesor-web.apps.googleusercontent.test', clientSecret: 'standin-google-web-secret', name: 'AutoAsesor', redirectUris, kind: 'web' as const },
  // Google's desktop clients have a secret that is "not confidential".
  googleDesktop: { clientId: 'autoasesor-desktop.apps.googleusercontent.test', clientSecret: 'standin-google-desktop-secret', name: 'AutoAsesor (escritorio)', kind: 'desktop' as const },
  microsoftWeb: { clientId: '00000000-0000-4000-8000-00000000a5e0', clientSecret: 'standin-microsoft-web-secret', name: 'AutoAsesor', redirectUris, kind: 'web' as const },
  // "Mobile and desktop applications" with public client flows: no secret.
  microsoftDesktop: { clientId: '00000000-0000-4000-8000-00000000de5c', name: 'AutoAsesor (escritorio)', kind: 'desktop' as const },
};
const accounts = {
  google: { email: 'demo.asesoria@gmail.com', name: 'Asesoría Demo' },
  microsoft: { email: 'demo.asesoria@outlook.com', name: 'Asesoría Demo' },
};

const providers = await startMailProviders({
  port,
  google: { clients: [clients.googleWeb, clients.googleDesktop], account: accounts.google },
  microsoft: { clients: [clients.microsoftWeb, clients.microsoftDesktop], account: accounts.microsoft },
});

const env = mailProvidersEnv(providers, clients);
process.stdout.write(`${JSON.stringify({ url: providers.url, env, accounts })}\n`);
process.stderr.write(`${Object.entries(env).map(([name, value]) => `export ${name}='${value}'`).join('\n')}\n`);

const stop = () => void providers.close().finally(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
