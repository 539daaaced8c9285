import { Link } from 'react-router-dom';
import { useMailAccountsQuery } from '../../api/mail.ts';
import { mail } from '../../i18n/es-mail.ts';
import { IconMail } from '../../ui/index.ts';
import './home.css';

const text = mail.relinkBanner;

/**
 * Home's warning of mailboxes the provider stopped accepting (invalid_grant): nothing is sent from them
 * until someone links them again. Said in words with an icon, not by colour alone; nothing when every
 * account is fine or the list fails.
 */
export function MailRelinkBanner() {
  const { data } = useMailAccountsQuery();
  const refused = (data ?? []).filter((account) => account.status === 'needs_relink').map((account) => account.email);
  if (refused.length === 0) return null;
  const [first] = refused;
  return (
    <div role="status" className="notifications-banner">
      <IconMail size={20} />
      <p>{refused.length === 1 && first !== undefined ? text.one(first) : text.many(refused)}</p>
      <Link to="/email">{text.link}</Link>
    </div>
  );
}
