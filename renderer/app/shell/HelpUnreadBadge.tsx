import { useUnreadAnswersQuery } from '../../api/support.ts';
import { support } from '../../i18n/es-support.ts';
import './HelpUnreadBadge.css';

/** Support checks tickets during the working day: a look every five minutes is soon enough for a badge. */
const UNREAD_POLL_MS = 5 * 60_000;

/** Beside 'Ayuda' in the menu: how many support answers the firm has not read yet (nothing when none). */
export function HelpUnreadBadge() {
  const { data: unread = 0 } = useUnreadAnswersQuery(undefined, { pollingInterval: UNREAD_POLL_MS });
  if (unread <= 0) return null;
  return (
    <span className="app-nav__badge">
      <span aria-hidden="true">{unread}</span>
      <span className="ui-visually-hidden">{support.nav.unreadBadge(unread)}</span>
    </span>
  );
}
