import { useEffect, useRef, useState } from 'react';
import type { BridgeResult } from '#shared/bridge/contract.ts';
import { accountApi } from '../../api/account.ts';
import { es } from '../../i18n/es.ts';
import { Button } from '../../ui/Button.tsx';
import { Modal } from '../../ui/Modal.tsx';
import { useAppDispatch, useBridge, useEmbedded, useSession } from '../hooks.ts';
import { isUpdateSnoozed, snoozeUpdate } from './updateDismissal.ts';

type UpdateCheck = BridgeResult<'CheckAppUpdate'>;

/** The check's answer, tied to the user it was made for so a later sign-in starts afresh. */
interface CheckFor {
  uid: string;
  result: UpdateCheck;
}

/** Asks the desktop once per sign-in whether it must or may update (spec §4 Desktop updates). */
function useAppUpdateCheck(enabled: boolean): UpdateCheck | null {
  const embedded = useEmbedded();
  const bridge = useBridge();
  const dispatch = useAppDispatch();
  const uid = useSession().user?.uid ?? null;
  const checkedFor = useRef<string | null>(null);
  const [answer, setAnswer] = useState<CheckFor | null>(null);

  useEffect(() => {
    if (uid === null) checkedFor.current = null;
    if (uid === null || !enabled || !embedded || !bridge.available || checkedFor.current === uid) return;
    checkedFor.current = uid;
    void bridge.invoke('CheckAppUpdate', {}).then((envelope) => {
      if (envelope.ok) {
        setAnswer({ uid, result: envelope.data });
        return;
      }
      // Not the user's problem (no feed, offline): nothing on screen, a note for us in the app logs.
      void dispatch(
        accountApi.endpoints.appLog.initiate({
          level: 'warn',
          message: `CheckAppUpdate failed (${envelope.error.code}): ${envelope.error.message}`,
          context: { command: 'CheckAppUpdate', code: envelope.error.code },
        }),
      );
    });
  }, [uid, enabled, embedded, bridge, dispatch]);

  return answer !== null && answer.uid === uid ? answer.result : null;
}

function ForcedUpdate({ current, latest }: { current: string; latest: string }) {
  const bridge = useBridge();
  const [closeError, setCloseError] = useState<string | null>(null);
  const closeApp = async () => {
    const envelope = await bridge.invoke('CloseWindow', {});
    setCloseError(envelope.ok ? null : envelope.error.message);
  };
  return (
    <Modal
      open
      dismissable={false}
      title={es.update.forcedTitle}
      onClose={() => undefined}
      footer={<Button onClick={() => void closeApp()}>{es.update.closeApp}</Button>}
    >
      <p>{es.update.forcedVersions(current, latest)}</p>
      <p>{es.update.forcedHowTo}</p>
      {closeError && <p role="alert">{closeError}</p>}
    </Modal>
  );
}

function OptionalUpdate({ latest }: { latest: string }) {
  const [snoozed, setSnoozed] = useState(() => isUpdateSnoozed(window.localStorage, latest, Date.now()));
  if (snoozed) return null;
  const later = () => {
    snoozeUpdate(window.localStorage, latest, Date.now());
    setSnoozed(true);
  };
  return (
    <div className="app-update-banner" role="status">
      <span>{es.update.available(latest)}</span>
      <Button variant="secondary" onClick={later}>
        {es.update.later}
      </Button>
    </div>
  );
}

/**
 * In the desktop app, after sign-in: a forced update blocks the app behind a dialog it cannot leave;
 * an optional one shows a banner the user may put off for a day. Web mode never asks.
 */
export function UpdatePrompt({ active }: { active: boolean }) {
  const check = useAppUpdateCheck(active);
  // Without a version to name there is nothing useful to tell the user.
  if (!active || !check?.latestVersion) return null;
  if (check.update === 'forceUpdate') return <ForcedUpdate current={check.currentVersion} latest={check.latestVersion} />;
  if (check.update === 'optionalUpdate') return <OptionalUpdate key={check.latestVersion} latest={check.latestVersion} />;
  return null;
}
