import { Link } from 'react-router-dom';
import { useSubscriptionUsage } from '../../api/account.ts';
import { useNavigationRoutes } from '../../app/navigation.ts';
import { PageHeader, SubscriptionStatusCard } from '../../ui/index.ts';
import { es } from '../../i18n/es.ts';
import { AltasReceivedBanner } from './AltasReceivedBanner.tsx';
import { areaIcon } from './areaIcons.tsx';
import { MailRelinkBanner } from './MailRelinkBanner.tsx';
import { NotificationsBanner } from './NotificationsBanner.tsx';

/**
 * The subscription at a glance and a tile per area this user may open. The greeting lives in the top
 * bar only, so Home titles itself with its area name like every other page.
 */
export default function HomePage() {
  const subscription = useSubscriptionUsage();
  const areas = useNavigationRoutes().filter(({ route }) => route.name !== 'Home');
  // Only for users who can open the notifications screen the banner leads to.
  const seesNotifications = areas.some(({ route }) => route.name === 'NotificationsDashboard');
  const seesAltas = areas.some(({ route }) => route.name === 'AltasBajasDashboard');
  return (
    <main className="ui-page">
      <PageHeader title={es.nav.Home} subtitle={es.home.subtitle} />
      <SubscriptionStatusCard {...subscription} />
      {seesNotifications && <NotificationsBanner />}
      {seesAltas && <AltasReceivedBanner />}
      <MailRelinkBanner />
      <section aria-labelledby="home-areas" className="app-page__section">
        <h2 id="home-areas" className="ui-section__title">{es.home.areas}</h2>
        <ul className="app-tiles">
          {areas.map(({ route, label, to }) => {
            const Icon = areaIcon(route.name);
            return (
              <li key={route.name}>
                <Link to={to}>
                  <span className="app-tiles__icon">
                    <Icon />
                  </span>
                  {label}
                </Link>
              </li>
            );
          })}
        </ul>
      </section>
    </main>
  );
}
