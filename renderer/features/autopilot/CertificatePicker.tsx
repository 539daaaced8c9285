import { useEffect, useId, useState } from 'react';
import type { AutopilotApp, AutopilotCertificate } from '#shared/autopilot/state.ts';
import type { LocalCertificate } from '#shared/certificates/certificate.ts';
import { useBridge } from '../../app/hooks.ts';
import { autopilot as text } from '../../i18n/es-autopilot.ts';
import { Button } from '../../ui/Button.tsx';
import { CertificateItem } from '../../ui/CertificateItem.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { toAutopilotCertificate } from './certificates.ts';

type Listing =
  | { state: 'loading' }
  | { state: 'failed'; message: string }
  | { state: 'ready'; certificates: LocalCertificate[]; problems: string[] };

export interface CertificatePickerProps {
  app: Pick<AutopilotApp, 'title' | 'certificates' | 'multipleCertificates'>;
  /** A command is under way: 'Añadir' waits. */
  busy: boolean;
  onBack: () => void;
  onAdd: (chosen: AutopilotCertificate[]) => void;
}

/**
 * 'Añadir certificado' (spec §2): this PC's certificates (GetCertificatesList), checkboxes when the
 * app takes several (those it has are not offered again), radios when it takes one (its current one
 * chosen). 'Volver' goes back to the panel; 'Añadir' hands the choice on.
 */
export function CertificatePicker({ app, busy, onBack, onAdd }: CertificatePickerProps) {
  const bridge = useBridge();
  const headingId = useId();
  const radioName = useId();
  const [listing, setListing] = useState<Listing>({ state: 'loading' });
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() =>
    app.multipleCertificates ? new Set() : new Set(app.certificates.map((certificate) => certificate.fingerprint)),
  );
  const [missing, setMissing] = useState(false);

  useEffect(() => {
    let live = true;
    void bridge.invoke('GetCertificatesList', {}).then((envelope) => {
      if (!live) return;
      if (!envelope.ok) setListing({ state: 'failed', message: envelope.error.message });
      else setListing({ state: 'ready', certificates: envelope.data.certificates, problems: envelope.data.problems.map((problem) => `${problem.source}: ${problem.message}`) });
    });
    return () => {
      live = false;
    };
  }, [bridge]);

  const has = new Set(app.certificates.map((certificate) => certificate.fingerprint));
  const offered = listing.state === 'ready' ? listing.certificates.filter((certificate) => !app.multipleCertificates || !has.has(certificate.fingerprint)) : [];

  const choose = (fingerprint: string, checked: boolean) => {
    setMissing(false);
    setChosen((current) => {
      if (!app.multipleCertificates) return new Set(checked ? [fingerprint] : []);
      const next = new Set(current);
      if (checked) next.add(fingerprint);
      else next.delete(fingerprint);
      return next;
    });
  };

  const add = () => {
    const picked = offered.filter((certificate) => chosen.has(certificate.fingerprint)).map(toAutopilotCertificate);
    if (picked.length === 0) {
      setMissing(true);
      return;
    }
    onAdd(picked);
  };

  return (
    <section className="autopilot-picker" aria-labelledby={headingId}>
      <h3 id={headingId} className="autopilot-column__title">{text.picker.title(app.title)}</h3>
      {listing.state === 'loading' && <Spinner label={text.picker.loading} />}
      {listing.state === 'failed' && <p role="alert" className="autopilot-error">{listing.message}</p>}
      {listing.state === 'ready' && (
        <>
          {listing.problems.length > 0 && (
            <div className="ui-muted autopilot-picker__problems">
              <p>{text.picker.problems}</p>
              <ul>
                {listing.problems.map((problem) => <li key={problem}>{problem}</li>)}
              </ul>
            </div>
          )}
          {offered.length === 0 ? (
            <p className="ui-muted">{listing.certificates.length === 0 ? text.picker.empty : text.picker.allChosen}</p>
          ) : (
            <fieldset className="autopilot-picker__list">
              <legend className="ui-visually-hidden">{app.multipleCertificates ? text.picker.chooseSome : text.picker.chooseOne}</legend>
              {offered.map((certificate, index) => (
                <CertificateItem
                  key={certificate.fingerprint}
                  certificate={certificate}
                  index={index}
                  selection={{
                    type: app.multipleCertificates ? 'checkbox' : 'radio',
                    name: app.multipleCertificates ? undefined : radioName,
                    value: certificate.fingerprint,
                    checked: chosen.has(certificate.fingerprint),
                    onChange: (checked) => choose(certificate.fingerprint, checked),
                  }}
                />
              ))}
            </fieldset>
          )}
        </>
      )}
      {missing && <p role="alert" className="autopilot-error">{app.multipleCertificates ? text.picker.chooseSome : text.picker.chooseOne}</p>}
      <div className="autopilot-picker__buttons">
        <Button variant="secondary" onClick={onBack}>{text.picker.back}</Button>
        <Button loading={busy} disabled={listing.state !== 'ready' || offered.length === 0} onClick={add}>{text.picker.add}</Button>
      </div>
    </section>
  );
}
