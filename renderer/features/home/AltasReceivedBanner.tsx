import { Link } from 'react-router-dom';
import { useAltasReceivedQuery } from '../../api/altasReceived.ts';
import { altas } from '../../i18n/es-altas.ts';
import { IconInbox } from '../../ui/index.ts';
import './home.css';

/**
 * Home's notice of the altas the client companies sent that wait to be filed in RED (issue 44, 3), with
 * the link to Altas y bajas. Said in words with an icon; nothing when there are none or the count fails.
 */
export function AltasReceivedBanner() {
  const { data } = useAltasReceivedQuery(undefined, { refetchOnMountOrArgChange: true });
  if (!data || data.count === 0) return null;
  return (
    <div role="status" className="notifications-banner">
      <IconInbox size={20} />
      <p>{altas.home.received(data.count)}</p>
      <Link to="/altasybajas">{altas.home.link}</Link>
    </div>
  );
}
