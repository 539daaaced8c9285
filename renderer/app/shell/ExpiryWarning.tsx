import { Link } from 'react-router-dom';
import type { ExpiringCertificate } from '#shared/api/machines.ts';
import { useExpiringCertificatesQuery } from '../../api/machines.ts';
import { es } from '../../i18n/es.ts';
import { IconAlert } from '../../ui/icons.tsx';
import { useSession } from '../hooks.ts';

/** The top bar warns about certificates within this many days of expiry (or already expired). */
export const WARNING_DAYS = 30;
/** At or under this many days left the warning turns red. */
export const URGENT_DAYS = 7;

export interface ExpirySummary {
  count: number;
  urgent: boolean;
}

/**
 * How many of the firm's certificates expire within 30 days (or have expired; the radar keeps them a
 * month), counted once however many machines hold them, and whether any is a week away or gone.
 */
export function expiringSoon(items: readonly Pick<ExpiringCertificate, 'fingerprint' | 'daysLeft'>[]): ExpirySummary {
  const soon = items.filter((item) => item.daysLeft <= WARNING_DAYS);
  return {
    count: new Set(soon.map((item) => item.fingerprint)).size,
    urgent: soon.some((item) => item.daysLeft <= URGENT_DAYS),
  };
}

/** The top bar's chip: '3 certificados caducan pronto', a link to the expiry radar; nothing when none. */
export function ExpiryWarning() {
  const { user } = useSession();
  // The radar's 60 days, so this and /workspace?vista=caducidades share one cached answer.
  const { data } = useExpiringCertificatesQuery({ days: 60 }, { skip: !user });
  if (!user || !data) return null;
  const { count, urgent } = expiringSoon(data.items);
  if (count === 0) return null;
  return (
    <Link
      to="/workspace?vista=caducidades"
      className={`app-expiry-chip${urgent ? ' app-expiry-chip--urgent' : ''}`}
      aria-label={es.topBar.expiringSoonLink(count)}
      title={`${count} ${es.topBar.expiringSoon(count)}`}
    >
      <IconAlert size={16} />
      <span className="app-expiry-chip__count">{count}</span>
      {/* Below 600 px the words give way, so the top bar stays one line (app.css). */}
      <span className="app-expiry-chip__text">{es.topBar.expiringSoon(count)}</span>
    </Link>
  );
}
