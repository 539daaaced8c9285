import { useSubscriptionUsage } from '../../api/account.ts';
import { SubscriptionStatusCard } from '../../ui/index.ts';
import { es } from '../../i18n/es.ts';

/** Honest about what exists: the plan and its usage; online payment is not offered yet. */
export default function PaymentsPage() {
  const subscription = useSubscriptionUsage();
  return (
    <main className="app-page">
      <h1>{es.payments.title}</h1>
      <SubscriptionStatusCard {...subscription} showPaymentsLink={false} />
      <section className="app-card" aria-labelledby="payments-online">
        <h2 id="payments-online">{es.payments.notAvailable}</h2>
        <p>{es.payments.contactSupport}</p>
      </section>
    </main>
  );
}
