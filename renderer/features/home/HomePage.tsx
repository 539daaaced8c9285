import { Link } from 'react-router-dom';
import { useSubscriptionUsage } from '../../api/account.ts';
import { useNavigationRoutes, useSession } from '../../app/hooks.ts';
import { SubscriptionStatusCard } from '../../ui/index.ts';
import { es } from '../../i18n/es.ts';

/** Greeting, the subscription at a glance, and a tile per area this user may open. */
export default function HomePage() {
  const { user } = useSession();
  const subscription = useSubscriptionUsage();
  const areas = useNavigationRoutes().filter(({ route }) => route.name !== 'Home');
  return (
    <main className="app-page">
      <header>
        <h1>{es.home.title(user?.name ?? '')}</h1>
        <p className="app-muted">{es.home.subtitle}</p>
      </header>
      <SubscriptionStatusCard {...subscription} />
      <section aria-labelledby="home-areas">
        <h2 id="home-areas">{es.home.areas}</h2>
        <ul className="app-tiles">
          {areas.map(({ route, label, to }) => (
            <li key={route.name}>
              <Link to={to}>{label}</Link>
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
