import { Link } from 'react-router-dom';
import type { LedgerEntry } from '#shared/api/billing.ts';
import { creditUnitNames, formatCredits, formatMoney } from '#shared/billing/index.ts';
import { formatMadridDate, formatMadridTime } from '#shared/time/index.ts';
import { billing } from '../../i18n/es-billing.ts';
import { formatFigure, runHistoryUrl, signedSlans } from './ledgerModel.ts';
import { ScrollTable } from './ScrollTable.tsx';

const text = billing.ledger;

function Concept({ entry }: { entry: LedgerEntry }) {
  if (entry.kind === 'credit') return <>{entry.description ?? text.credit}</>;
  const robot = entry.robot ?? text.none;
  const url = runHistoryUrl(entry);
  return url ? <Link to={url} aria-label={text.seeRun(robot)}>{robot}</Link> : <>{robot}</>;
}

/** A charge's slans past the plan, with their € when the line bills money ('2 slans · 0,06 €'); '—' otherwise. */
function extraOf(entry: LedgerEntry, currencies: string | undefined): string {
  if (entry.extraSlans <= 0) return text.none;
  const slans = formatCredits(entry.extraSlans, currencies);
  return entry.extraPrice != null ? text.extraValue(slans, formatMoney(entry.extraPrice)) : slans;
}

function Row({ entry, currencies }: { entry: LedgerEntry; currencies: string | undefined }) {
  const at = new Date(entry.at);
  return (
    <tr>
      {/* Day and time may break onto two lines: the column stays narrow where it is kept in view (a phone). */}
      <td className="ledger-table__at">
        <span>{formatMadridDate(at)}</span> <span>{formatMadridTime(at)}</span>
      </td>
      <td><Concept entry={entry} /></td>
      <td>{entry.user ? <span title={entry.user.email}>{entry.user.name}</span> : text.none}</td>
      <td className="payments-number">{entry.units !== null ? `${formatFigure(entry.units)} ${entry.unitName ?? ''}`.trim() : text.none}</td>
      <td className={`payments-number payments-slans--${entry.slans < 0 ? 'charge' : 'credit'}`}>{signedSlans(entry.slans)}</td>
      <td className="payments-number">{extraOf(entry, currencies)}</td>
    </tr>
  );
}

/**
 * The movements, newest first; it scrolls inside its own box so a narrow window never scrolls sideways,
 * with a cue while columns are out of sight and the date kept in view (ScrollTable).
 */
export function LedgerTable({ entries, currencies }: { entries: readonly LedgerEntry[]; currencies: string | undefined }) {
  const plural = creditUnitNames(currencies).plural;
  const slansHeader = plural.charAt(0).toUpperCase() + plural.slice(1);
  return (
    // The scroll box is a keyboard-reachable region of its own name; the table takes the section's title.
    <ScrollTable label={text.tableScroll}>
      <table className="ui-table ledger-table" aria-labelledby="ledger-entries-title">
        <thead>
          <tr>
            <th scope="col">{text.at}</th>
            <th scope="col">{text.concept}</th>
            <th scope="col">{text.user}</th>
            <th scope="col" className="payments-number">{text.units}</th>
            <th scope="col" className="payments-number">{slansHeader}</th>
            <th scope="col" className="payments-number">{text.additional}</th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => <Row key={entry.id} entry={entry} currencies={currencies} />)}
        </tbody>
      </table>
    </ScrollTable>
  );
}
