import { Link } from 'react-router-dom';
import { formatCredits, formatMoney } from '#shared/billing/index.ts';
import type { SubscriptionUsage } from '#shared/domain/subscription.ts';
import { formatMadridDate } from '#shared/time/index.ts';
import { Spinner } from './Spinner.tsx';
import { es } from '../i18n/es.ts';

export interface SubscriptionStatusCardProps {
  usage?: SubscriptionUsage;
  loading: boolean;
  failed: boolean;
  /** The firm's names for its credits (group config), as formatCredits takes them. */
  currencies?: string;
  /** ISO code for money; EUR when absent. */
  currency?: string;
  showPaymentsLink?: boolean;
}

/** Plan, usage bar, balance and next payment, with the way to Payments; the page fetches what it shows. */
export function SubscriptionStatusCard({ usage, loading, failed, currencies, currency, showPaymentsLink = true }: SubscriptionStatusCardProps) {
  let body;
  if (loading) body = <Spinner size="small" />;
  else if (failed || !usage) body = <p>{es.subscription.loadFailed}</p>;
  else {
    const percentage = Math.max(0, Math.min(100, usage.slansPercentage));
    const status = usage.cancelled ? es.subscription.cancelled : usage.trialing ? es.subscription.trialing : null;
    body = (
      <dl className="app-subscription__facts">
        <dt>{es.subscription.plan}</dt>
        <dd>
          {usage.active ? usage.name : es.subscription.noPlan}
          {status && <span className="app-subscription__status"> · {status}</span>}
        </dd>
        <dt>{es.subscription.usage}</dt>
        <dd>
          <div
            className={`app-usage-bar${usage.slansPercentage >= 100 ? ' app-usage-bar--full' : ''}`}
            role="progressbar"
            aria-label={es.subscription.usage}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(percentage)}
          >
            <span style={{ width: `${percentage}%` }} />
          </div>
          {es.subscription.usageValue(formatCredits(usage.usedSlans, currencies), formatCredits(usage.usageLimit, currencies))}
        </dd>
        <dt>{es.subscription.balance}</dt>
        <dd>{formatCredits(usage.balance, currencies)}</dd>
        {usage.excededSlans > 0 && (
          <>
            <dt>{es.subscription.extra}</dt>
            <dd>
              {formatCredits(usage.excededSlans, currencies)} · {formatMoney(usage.extraPrice, currency)}
            </dd>
          </>
        )}
        {/* A trial has no payment due yet: a date here would read as a charge the user never agreed to. */}
        {!usage.trialing && (
          <>
            <dt>{es.subscription.nextPayment}</dt>
            <dd>{usage.nextPaymentDate ? formatMadridDate(new Date(usage.nextPaymentDate)) : es.subscription.noNextPayment}</dd>
          </>
        )}
      </dl>
    );
  }

  return (
    <section className="app-card app-subscription" aria-labelledby="subscription-card-title">
      <h2 id="subscription-card-title">{es.subscription.title}</h2>
      {body}
      {showPaymentsLink && (
        <Link to="/payments" className="app-link-button">
          {es.subscription.goToPayments}
        </Link>
      )}
    </section>
  );
}
