import { useId } from 'react';
import type { CSSProperties, ReactNode } from 'react';
import { certificateKindNames, certificateStoreNames, daysUntil, expiryThreshold } from '#shared/certificates/certificate.ts';
import type { CertificateMetadata } from '#shared/certificates/certificate.ts';
import { formatMadridDate } from '#shared/time/index.ts';
import { widgets } from '../i18n/es-screens.ts';

const text = widgets.certificate;

/** The public facts a row shows; both a local certificate and a synced one have them. */
export type CertificateItemData = Pick<CertificateMetadata, 'commonName' | 'nifVat' | 'kind' | 'issuer' | 'notAfter' | 'store'>;

export interface CertificateSelection {
  type: 'checkbox' | 'radio';
  checked: boolean;
  onChange: (checked: boolean) => void;
  /** Radio group name; radios of one list share it. */
  name?: string;
  value?: string;
  disabled?: boolean;
}

export interface CertificateItemProps {
  certificate: CertificateItemData;
  /** The machine that synced it; shown instead of the store when given. */
  machineName?: string;
  /** Makes the whole row a label for a checkbox or radio. */
  selection?: CertificateSelection;
  /** Position in its list, for the staggered entry animation (40 ms per item). */
  index?: number;
  /** Buttons or links at the end of the row (outside the label). */
  actions?: ReactNode;
  /** The instant expiry is counted from; now by default. */
  now?: Date;
}

export type ExpiryTone = 'danger' | 'warning' | 'notice';

export interface ExpiryStatus {
  /** 'Caduca el dd/mm/yyyy' (Madrid) or 'Caducó el ...'. */
  dateText: string;
  /** The chip, only when the certificate is expired or expires within 60 days. */
  chip: { text: string; tone: ExpiryTone } | null;
}

/** How close a certificate's expiry is, in the words and colour the rows and the radar use. */
export function expiryStatus(notAfter: string, now: Date): ExpiryStatus {
  const daysLeft = daysUntil(notAfter, now);
  const date = formatMadridDate(new Date(notAfter));
  const threshold = expiryThreshold(daysLeft);
  const expired = daysLeft < 0;
  const dateText = expired ? text.expiredOn(date) : text.expiresOn(date);
  if (threshold === null) return { dateText, chip: null };
  // Red once it is a week away or gone; amber within a month; a quiet note within two.
  const tone: ExpiryTone = threshold <= 7 ? 'danger' : threshold <= 30 ? 'warning' : 'notice';
  const chipText = expired ? text.expired : daysLeft === 0 ? text.expiresToday : daysLeft === 1 ? text.expiresTomorrow : text.expiresInDays(daysLeft);
  return { dateText, chip: { text: chipText, tone } };
}

/** One certificate as a card row: name, NIF and kind, issuer, where it lives and when it expires. */
export function CertificateItem({ certificate, machineName, selection, index, actions, now = new Date() }: CertificateItemProps) {
  const titleId = useId();
  const detailsId = useId();
  const expiry = expiryStatus(certificate.notAfter, now);
  const location = machineName ?? certificateStoreNames[certificate.store];
  const style = index === undefined ? undefined : ({ '--ui-certificate-delay': `${index * 40}ms` } as CSSProperties);

  const body = (
    <>
      {selection && (
        <input
          className="ui-certificate__control"
          type={selection.type}
          name={selection.name}
          value={selection.value}
          checked={selection.checked}
          disabled={selection.disabled}
          aria-labelledby={titleId}
          aria-describedby={detailsId}
          onChange={(event) => selection.onChange(event.target.checked)}
        />
      )}
      <span className="ui-certificate__body">
        <span id={titleId} className="ui-certificate__title">
          {certificate.commonName}
        </span>
        <span id={detailsId} className="ui-certificate__details">
          <span className="ui-certificate__line">
            <span className="ui-certificate__nif">{certificate.nifVat ?? text.noNif}</span>
            <span aria-hidden="true"> · </span>
            <span>{certificateKindNames[certificate.kind]}</span>
          </span>
          <span className="ui-certificate__line ui-certificate__muted">{text.issuedBy(certificate.issuer)}</span>
          <span className="ui-certificate__line ui-certificate__muted">
            <span className="ui-visually-hidden">{text.location}: </span>
            {location}
          </span>
          <span className="ui-certificate__line ui-certificate__expiry">
            <span>{expiry.dateText}</span>
            {expiry.chip && <span className={`ui-chip ui-chip--${expiry.chip.tone}`}>{expiry.chip.text}</span>}
          </span>
        </span>
      </span>
    </>
  );

  const animated = index === undefined ? '' : ' ui-certificate--animated';
  return (
    <div className={`ui-certificate${selection?.checked ? ' ui-certificate--selected' : ''}${animated}`} style={style}>
      {selection ? <label className="ui-certificate__main">{body}</label> : <div className="ui-certificate__main">{body}</div>}
      {actions && <div className="ui-certificate__actions">{actions}</div>}
    </div>
  );
}
