import { Link } from 'react-router-dom';
import { formatCredits } from '#shared/billing/index.ts';
import { es } from '../../i18n/es.ts';

export interface CreditChipProps {
  balance: number;
  /** The group's 'singular|plural' unit names; 'slan|slans' when absent. */
  currencies?: string;
}

/** The top bar's balance: '1.250 slans', a link to Payments. */
export function CreditChip({ balance, currencies }: CreditChipProps) {
  const credits = formatCredits(balance, currencies);
  return (
    <Link to="/payments" className="app-credit-chip" aria-label={es.topBar.creditChip(credits)}>
      {credits}
    </Link>
  );
}
