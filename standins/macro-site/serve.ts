/**
 * Starts the macro test site on its own, for manual tries and any suite that wants it as a process, and
 * prints one JSON line: { url, httpsUrl, robotSettings }. robotSettings is the AUTOASESOR_ROBOT_SETTINGS
 * value that lets the macro player, recorder and scraper accept the site's test server certificate.
 *
 * Usage: node --import tsx standins/macro-site/serve.ts [--port <n>] [--https-port <n>]
 * Runs until SIGINT or SIGTERM. Test-only: never part of the app.
 */
import { parseArgs } from 'node:util';
import { startMacroSite } from './site.ts';

const { values } = parseArgs({ options: { port: { type: 'string' }, 'https-port': { type: 'string' } } });
const portOf = (value: string | undefined) => {
  const port = value === undefined ? 0 : Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    process.stderr.write(`serve.ts: ${value} is not a port number\n`);
    process.exit(1);
  }
  return port;
};
const site = await startMacroSite({ port: portOf(values.port), httpsPort: portOf(values['https-port']) });
process.stdout.write(`${JSON.stringify({ url: site.url, httpsUrl: site.httpsUrl, robotSettings: JSON.stringify({ macros: { ignoreHTTPSErrors: true } }) })}\n`);
const stop = () => void site.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
