import { useRef, useState } from 'react';
import type { MailAccount, MailProvider } from '#shared/api/mail.ts';
import type { BridgeErrorCode } from '#shared/bridge/envelope.ts';
import { useCompleteDesktopMailOAuthMutation, useLazyDesktopMailClientsQuery, useStartMailOAuthMutation } from '../../api/mail.ts';
import { useBridge, useToast } from '../../app/hooks.ts';
import { mail } from '../../i18n/es-mail.ts';
import { errorMessage } from '../../ui/forms.ts';
import { saveDraft } from './draft.ts';
import { browserPage } from './leavePage.ts';
import type { WizardDraft } from './draft.ts';

const text = mail.account;

/** The bridge's refusals said in the wizard's words; any other code keeps the bridge's own Spanish message. */
export function bridgeErrorMessage(error: { code: BridgeErrorCode; message: string }): string {
  const known: Partial<Record<BridgeErrorCode, string>> = text.bridgeErrors;
  return known[error.code] ?? (error.message || text.completeFailed);
}

export interface ConnectOptions {
  /** The wizard as it is now: saved before the web flow leaves the page. */
  draft: WizardDraft;
  onLinked: (account: MailAccount) => void;
}

/**
 * 'Conectar con Google/Microsoft' and 'Volver a conectar'. In the desktop app (or with the agent) the
 * bridge's OAuthConnect runs the loopback flow and the code it returns is redeemed by the server; on
 * the web the server starts the authorization-code flow and the browser leaves for the provider,
 * after the wizard's draft is put in sessionStorage for /oauth-response to bring back.
 */
export function useConnectAccount({ draft, onLinked }: ConnectOptions) {
  const bridge = useBridge();
  const toast = useToast();
  const [startWeb] = useStartMailOAuthMutation();
  const [completeDesktop] = useCompleteDesktopMailOAuthMutation();
  const [desktopClients] = useLazyDesktopMailClientsQuery();
  const [busy, setBusy] = useState<MailProvider | null>(null);
  const [waiting, setWaiting] = useState(false);
  const [error, setError] = useState<string | null>(null);
  // Each attempt's number: a cancelled attempt's late answer is ignored (the bridge call itself cannot be aborted).
  const attempt = useRef(0);

  const connect = async (provider: MailProvider, loginHint?: string) => {
    const current = ++attempt.current;
    setError(null);
    setBusy(provider);
    try {
      if (!bridge.available) {
        const { authorizationUrl } = await startWeb({ provider, ...(loginHint ? { loginHint } : {}) }).unwrap();
        saveDraft({ ...draft, step: 'auth' });
        browserPage.leaveFor(authorizationUrl);
        return;
      }
      // The server's desktop client: an installed app has no settings of its own for it.
      const client = (await desktopClients(undefined, true).unwrap())[provider];
      if (current !== attempt.current) return;
      setWaiting(true);
      const result = await bridge.invoke('OAuthConnect', { provider, scope: 'sendemail', prompt: 'consent', ...(loginHint ? { loginHint } : {}), ...(client ? { client } : {}) });
      if (current !== attempt.current) return;
      setWaiting(false);
      if (!result.ok) {
        setError(bridgeErrorMessage(result.error));
        return;
      }
      const account = await completeDesktop(result.data).unwrap();
      if (current !== attempt.current) return;
      toast.success(text.connected(account.email));
      onLinked(account);
    } catch (failure) {
      if (current !== attempt.current) return;
      setWaiting(false);
      setError(errorMessage(failure, bridge.available ? text.completeFailed : text.startFailed));
    } finally {
      if (current === attempt.current) setBusy(null);
    }
  };

  const cancel = () => {
    attempt.current += 1;
    setWaiting(false);
    setBusy(null);
    toast.info(text.cancelled);
  };

  return { connect, cancel, busy, waiting, error };
}
