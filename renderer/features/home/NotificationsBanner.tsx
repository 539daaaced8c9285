import { Link } from 'react-router-dom';
import { notifications as text } from '../../i18n/es-notifications.ts';
import { IconInbox } from '../../ui/index.ts';
import { useNotificationsSummaryQuery } from '../../api/notifications.ts';
import './home.css';

/** Where the banner leads: the pending ones, the soonest to expire first. */
export const EXPIRING_NOTIFICATIONS_LINK = '/notifications?view=pendientes&sortby=caducidad&sortdir=asc';

/**
 * Home's warning of DEHÚ notifications about to expire (within 3 days) or new in the last day. Said in
 * words with an icon, not by colour alone; nothing when there is nothing to say or the summary fails.
 */
export function NotificationsBanner() {
  const { data } = useNotificationsSummaryQuery();
  if (!data || (data.expiringSoonCount === 0 && data.newCount === 0)) return null;
  const lines = [
    ...(data.expiringSoonCount > 0 ? [text.banner.expiring(data.expiringSoonCount)] : []),
    ...(data.newCount > 0 ? [text.banner.fresh(data.newCount)] : []),
  ];
  return (
    <div role="status" className="notifications-banner">
      <IconInbox size={20} />
      <p>{lines.join(' · ')}</p>
      <Link to={EXPIRING_NOTIFICATIONS_LINK}>{text.banner.link}</Link>
    </div>
  );
}
