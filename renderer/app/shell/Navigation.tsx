import { NavLink } from 'react-router-dom';
import { es } from '../../i18n/es.ts';
import { useNavigationRoutes } from '../navigation.ts';
import { HelpUnreadBadge } from './HelpUnreadBadge.tsx';

/**
 * The list of areas. Beside the page on wide screens, inside the drawer on narrow ones (where a
 * choice also closes the drawer through onNavigate).
 */
export function Navigation({ onNavigate }: { onNavigate?: () => void }) {
  const links = useNavigationRoutes();
  return (
    <nav className="app-nav" aria-label={es.nav.mainNavigation}>
      <ul>
        {links.map(({ route, label, to }) => (
          <li key={route.name}>
            {/* data-label reserves the bold width, so the active item does not grow or wrap (app.css). */}
            <NavLink to={to} onClick={onNavigate} data-label={label}>
              <span>{label}</span>
              {route.name === 'Help' && <HelpUnreadBadge />}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
