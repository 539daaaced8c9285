import { NavLink } from 'react-router-dom';
import { es } from '../../i18n/es.ts';
import { useNavigationRoutes } from '../hooks.ts';

export function Navigation() {
  const links = useNavigationRoutes();
  return (
    <nav className="app-nav" aria-label={es.nav.mainNavigation}>
      <ul>
        {links.map(({ route, label, to }) => (
          <li key={route.name}>
            <NavLink to={to}>{label}</NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}
