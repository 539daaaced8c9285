import { Link } from 'react-router-dom';
import { es } from '../../i18n/es.ts';

/** A local install cannot take payments: the plan is arranged with support (the texts predate issue 26). */
export function SupportSection() {
  return (
    <section className="app-card" aria-labelledby="payments-online">
      <h2 id="payments-online">{es.payments.notAvailable}</h2>
      <p>{es.payments.contactSupport}</p>
      <Link to="/help" className="app-link-button">
        {es.payments.supportLink}
      </Link>
    </section>
  );
}
