import { Link } from 'react-router-dom';
import type { LedgerEntry } from '#shared/api/billing.ts';
import { creditUnitNames, formatCredits } from '#shared/billing/index.ts';
import { formatMadridDateTime } from '#shared/time/index.ts';
import { billing } from '../../i18n/es-billing.ts';
import { formatFigure, runHistoryUrl, signedSlans } from './ledgerModel.ts';

const text = billing.ledger;

function Concept({ entry }: { entry: LedgerEntry }) {
  if (entry.kind === 'credit') return <>{entry.description ?? text.credit}</>;
  const robot = entry.robot ?? text.none;
  const url = runHistoryUrl(entry);
  return url ? <Link to={url} aria-label={text.seeRun(robot)}>{robot}</Link> : <>{robot}</>;
}

function Row({ entry, currencies }: { entry: LedgerEntry; currencies: string | undefined }) {
  return (
    <tr>
      <td>{formatMadridDateTime(new Date(entry.at))}</td>
      <td><Concept entry={entry} /></td>
      <td>{entry.user ? <span title={entry.user.email}>{entry.user.name}</span> : text.none}</td>
      <td className="payments-number">{entry.units !== null ? `${formatFigure(entry.units)} ${entry.unitName ?? ''}`.trim() : text.none}</td>
      <td className={`payments-number payments-slans--${entry.slans < 0 ? 'charge' : 'credit'}`}>{signedSlans(entry.slans)}</td>
      <td className="payments-number">{entry.extraSlans > 0 ? formatCredits(entry.extraSlans, currencies) : text.none}</td>
    </tr>
  );
}

/** The movements, newest first; it scrolls inside its own box so a narrow window never scrolls sideways. */
export function LedgerTable({ entries, currencies }: { entries: readonly LedgerEntry[]; currencies: string | undefined }) {
  const plural = creditUnitNames(currencies).plural;
  const slansHeader = plural.charAt(0).toUpperCase() + plural.slice(1);
  return (
    // The scroll box is a keyboard-reachable region of its own name; the table takes the section's title.
    <div className="ui-table-wrap payments-scroll" role="region" aria-label={text.tableScroll} tabIndex={0}>
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
    </div>
  );
}
