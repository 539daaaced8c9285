import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useLogoutMutation } from '../../api/account.ts';
import { es } from '../../i18n/es.ts';
import { support } from '../../i18n/es-support.ts';
import { appVersion } from '../env.ts';
import { isHidden } from '../guard.ts';
import { useAppDispatch, useEmbedded, useSession } from '../hooks.ts';
import { routeByName } from '../routes.ts';
import { menuClosed } from '../ui.ts';
import { useHostVersion, useMachineHash } from './desktopInfo.ts';
import { ReleaseNotes } from './ReleaseNotes.tsx';

/** The user's part of the menu drawer: account, payments, release notes, logout and versions (spec §2 Shell). */
export function SideMenu() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { user } = useSession();
  const embedded = useEmbedded();
  const hostVersion = useHostVersion();
  const machineHash = useMachineHash();
  const [notesOpen, setNotesOpen] = useState(false);
  const [logout, { isLoading: loggingOut }] = useLogoutMutation();

  const close = () => dispatch(menuClosed());
  const paymentsHidden = user ? isHidden(routeByName('Payments'), user.group.config) : false;

  const signOut = async () => {
    await logout();
    close();
    navigate('/auth', { replace: true });
  };

  return (
    <aside id="app-side-menu" className="app-side-menu" aria-label={es.sideMenu.title}>
      {/* A long address ends in an ellipsis instead of breaking mid-word; the title shows it whole. */}
      {user && (
        <p className="app-side-menu__email" title={user.email}>
          {user.email}
        </p>
      )}
      <ul className="app-side-menu__links">
        <li>
          <Link to="/userprofile" onClick={close}>
            {es.sideMenu.account}
          </Link>
        </li>
        {!paymentsHidden && (
          <li>
            <Link to="/payments" onClick={close}>
              {es.sideMenu.payments}
            </Link>
          </li>
        )}
        {user?.supportAgent && (
          // The support team's desk: listed for its members only (the page is a 'not found' for anyone else).
          <li>
            <Link to="/soporte" onClick={close}>
              {support.nav.desk}
            </Link>
          </li>
        )}
        <li>
          <button type="button" aria-expanded={notesOpen} onClick={() => setNotesOpen((open) => !open)}>
            {es.sideMenu.releaseNotes}
          </button>
          {notesOpen && <ReleaseNotes />}
        </li>
        <li>
          <button type="button" onClick={() => void signOut()} disabled={loggingOut}>
            {es.sideMenu.logout}
          </button>
        </li>
      </ul>
      <footer className="app-side-menu__versions">
        <p>{es.sideMenu.appVersion(appVersion)}</p>
        <p>{embedded && hostVersion ? es.sideMenu.hostVersion(hostVersion) : embedded ? es.common.loading : es.sideMenu.web}</p>
        {embedded && machineHash && (
          <p data-testid="machine-hash">
            {es.sideMenu.machine}
            {machineHash.slice(0, 12)}
          </p>
        )}
      </footer>
    </aside>
  );
}
