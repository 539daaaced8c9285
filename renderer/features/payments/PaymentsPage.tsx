import { Link } from 'react-router-dom';
import type { SubscriptionFull } from '#shared/api/billing.ts';
import { useSubscriptionFullQuery } from '../../api/billing.ts';
import { useSubscriptionUsage } from '../../api/account.ts';
import { useSession } from '../../app/hooks.ts';
import { LoadingImage, PageHeader, Spinner, SubscriptionStatusCard } from '../../ui/index.ts';
import { billing } from '../../i18n/es-billing.ts';
import { billingErrorCode } from './billingErrors.ts';
import { BillingInfoSection } from './BillingInfoSection.tsx';
import { CancelSection } from './CancelSection.tsx';
import { CardsSection } from './CardsSection.tsx';
import { InvoicesSection } from './InvoicesSection.tsx';
import { LoadError } from './LoadError.tsx';
import { PaymentFailedAlert } from './PaymentFailedAlert.tsx';
import { PlansSection } from './PlansSection.tsx';
import { PlanStatus } from './PlanStatus.tsx';
import { SupportSection } from './SupportSection.tsx';
import { hasRunningPaidPlan } from './paymentsModel.ts';
import { useStripeReturn } from './useStripeReturn.ts';
import type { ReturnNotice } from './useStripeReturn.ts';
import './payments.css';

/**
 * Pagos (spec §2, §3): at a glance the plan, its use, what the firm will pay and when; then the plans,
 * the cards, the billing info, cancelling and the invoices. Only the owner acts; a colleague reads.
 * Without Stripe (a local install) the plans are read-only and the page leads to support.
 */
export default function PaymentsPage() {
  const subscription = useSubscriptionFullQuery();
  const notice = useStripeReturn(subscription.data?.paymentsEnabled ?? false);
  const currencies = useSession().user?.group.config.currencies;

  let content;
  if (subscription.isLoading) content = <LoadingImage />;
  else if (subscription.isError && billingErrorCode(subscription.error) === 'PAYMENTS_NOT_CONFIGURED') content = <LocalInstall />;
  else if (subscription.isError || !subscription.data)
    content = <LoadError error={subscription.error} fallback={billing.loadFailed} onRetry={() => void subscription.refetch()} />;
  else content = <Subscription subscription={subscription.data} currencies={currencies} />;

  return (
    <main className="ui-page payments">
      <PageHeader title={billing.title} />
      {notice && <Notice notice={notice} />}
      {content}
    </main>
  );
}

function Notice({ notice }: { notice: ReturnNotice }) {
  return (
    <div role="status" className={`payments-notice payments-notice--${notice.tone}`}>
      {notice.busy && <Spinner size="small" decorative />}
      <p>{notice.text}</p>
    </div>
  );
}

function Subscription({ subscription, currencies }: { subscription: SubscriptionFull; currencies: string | undefined }) {
  const canAct = subscription.canManage && subscription.paymentsEnabled;
  return (
    <div className="payments-sections">
      {subscription.paymentFailed && <PaymentFailedAlert canAct={canAct} />}
      {!subscription.canManage && <p className="payments-owner-note">{billing.ownerOnly}</p>}
      <PlanStatus subscription={subscription} currencies={currencies} canAct={canAct} />
      <p>
        <Link to="/payments/consumo">{billing.ledgerLink}</Link>
      </p>
      <PlansSection subscription={subscription} currencies={currencies} canAct={canAct} />
      {subscription.paymentsEnabled ? (
        <>
          <CardsSection canAct={canAct} />
          <BillingInfoSection canAct={canAct} />
          {canAct && hasRunningPaidPlan(subscription) && <CancelSection subscription={subscription} />}
          <InvoicesSection />
        </>
      ) : (
        <SupportSection />
      )}
    </div>
  );
}

/** A server without Stripe that refuses the full view: the short usage view and the way to support. */
function LocalInstall() {
  const usage = useSubscriptionUsage();
  return (
    <div className="payments-sections">
      <SubscriptionStatusCard {...usage} showPaymentsLink={false} />
      <SupportSection />
    </div>
  );
}
