import { appendFile } from 'node:fs/promises';
import type { UrlOpener } from './types.ts';

export const OPEN_IN_BROWSER_PROMPT = 'Abre esta dirección en el navegador para conectar la cuenta:';

/**
 * The headless agent has no browser of its own. With AGENT_URL_OPENER_FILE it appends the address as
 * a line to that file (the e2e tests play the user's browser from it); otherwise it asks whoever reads
 * its stderr to open it. The address carries only the state and the PKCE challenge, never a secret.
 */
export function agentUrlOpener(env: NodeJS.ProcessEnv, writeErr: (line: string) => void = (line) => console.error(line)): UrlOpener {
  const file = env.AGENT_URL_OPENER_FILE?.trim();
  return async (url) => {
    if (file) {
      await appendFile(file, `${url}\n`, 'utf8').catch(() => {
        throw new Error(`no se puede escribir en AGENT_URL_OPENER_FILE «${file}»`);
      });
      return;
    }
    writeErr(`${OPEN_IN_BROWSER_PROMPT} ${url}`);
  };
}
