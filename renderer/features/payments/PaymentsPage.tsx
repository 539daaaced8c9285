import { Link } from 'react-router-dom';
import { useSubscriptionUsage } from '../../api/account.ts';
import { PageHeader, SubscriptionStatusCard } from '../../ui/index.ts';
import { es } from '../../i18n/es.ts';

/** Honest about what exists: the plan and its usage; online payment is not offered yet, so it leads to support on /help. */
export default function PaymentsPage() {
  const subscription = useSubscriptionUsage();
  return (
    <main className="ui-page">
      <PageHeader title={es.payments.title} />
      <SubscriptionStatusCard {...subscription} showPaymentsLink={false} />
      <section className="app-card" aria-labelledby="payments-online">
        <h2 id="payments-online">{es.payments.notAvailable}</h2>
        <p>{es.payments.contactSupport}</p>
        <Link to="/help" className="app-link-button">
          {es.payments.supportLink}
        </Link>
      </section>
    </main>
  );
}
