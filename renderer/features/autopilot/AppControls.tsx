import type { AutopilotApp, AutopilotAppId, AutopilotSnapshot, CertificateAppId } from '#shared/autopilot/state.ts';
import { needsCertificateWarning } from '#shared/autopilot/state.ts';
import { autopilot as text } from '../../i18n/es-autopilot.ts';
import { Button } from '../../ui/Button.tsx';
import { IconAlert, IconClose, IconPlus } from '../../ui/icons.tsx';
import { Toggle } from '../../ui/Toggle.tsx';
import { isCertificateApp } from './certificates.ts';
import { CountdownRing } from './CountdownRing.tsx';
import { AppIcon } from './icons.tsx';

export interface AppControlsProps {
  snapshot: AutopilotSnapshot;
  now: Date;
  /** The command under way ('switch:robots', 'certificates:altas'...), to hold its controls still. */
  pending: string | null;
  onSwitch: (app: 'all' | AutopilotAppId, enabled: boolean) => void;
  onAddCertificate: (app: CertificateAppId) => void;
  onRemoveCertificate: (app: CertificateAppId, fingerprint: string) => void;
}

/** Spec §2 'Control de aplicaciones' (embedded only): the general switch, then each app. */
export function AppControls({ snapshot, now, pending, onSwitch, onAddCertificate, onRemoveCertificate }: AppControlsProps) {
  return (
    <div className="autopilot-apps">
      <div className="autopilot-app autopilot-app--all">
        <Toggle label={text.allApps} checked={snapshot.enabled} disabled={pending !== null} onChange={(enabled) => onSwitch('all', enabled)} />
      </div>
      {snapshot.apps.map((app) => (
        <AppControl
          key={app.id}
          app={app}
          now={now}
          pending={pending}
          onSwitch={(enabled) => onSwitch(app.id, enabled)}
          onAddCertificate={onAddCertificate}
          onRemoveCertificate={onRemoveCertificate}
        />
      ))}
    </div>
  );
}

interface AppControlProps extends Pick<AppControlsProps, 'now' | 'pending' | 'onAddCertificate' | 'onRemoveCertificate'> {
  app: AutopilotApp;
  onSwitch: (enabled: boolean) => void;
}

function AppControl({ app, now, pending, onSwitch, onAddCertificate, onRemoveCertificate }: AppControlProps) {
  const certificateApp = isCertificateApp(app.id) ? app.id : null;
  return (
    <section className="autopilot-app" aria-label={app.title}>
      <div className="autopilot-app__head">
        <span className="autopilot-app__icon">
          <AppIcon app={app.id} size={22} />
        </span>
        <Toggle
          label={app.title}
          description={app.available ? app.description : (app.unavailableReason ?? undefined)}
          checked={app.enabled}
          disabled={!app.available || pending !== null}
          onChange={onSwitch}
        />
        {app.active && app.nextRefreshAt !== null && <CountdownRing nextRefreshAt={app.nextRefreshAt} refreshEveryMs={app.refreshEveryMs} now={now} />}
      </div>
      {app.problem && (
        <p className="autopilot-app__problem" role="alert">
          <IconAlert size={16} />
          {app.problem}
        </p>
      )}
      {certificateApp && (
        <div className="autopilot-app__certificates">
          {app.certificates.length > 0 && (
            <ul className="autopilot-certificates" aria-label={text.certificatesOf(app.title)}>
              {app.certificates.map((certificate) => (
                <li key={certificate.fingerprint} className="autopilot-certificates__item">
                  <span className="autopilot-certificates__name">{certificate.commonName}</span>
                  <button
                    type="button"
                    className="ui-icon-button"
                    aria-label={text.removeCertificate(certificate.commonName)}
                    disabled={pending !== null}
                    onClick={() => onRemoveCertificate(certificateApp, certificate.fingerprint)}
                  >
                    <IconClose size={16} />
                  </button>
                </li>
              ))}
            </ul>
          )}
          {needsCertificateWarning(app) && (
            <p className="autopilot-app__warning" role="status">
              <IconAlert size={16} />
              {text.certificateNeeded}
            </p>
          )}
          <Button
            variant="secondary"
            icon={<IconPlus size={16} />}
            // Chosen ahead for an app that cannot load yet: it is active with them once it can.
            disabled={pending !== null}
            onClick={() => onAddCertificate(certificateApp)}
          >
            {text.addCertificate}
          </Button>
        </div>
      )}
    </section>
  );
}
