import type { Invoice } from '#shared/api/billing.ts';
import { formatMoney } from '#shared/billing/index.ts';
import { useInvoicesQuery } from '../../api/billing.ts';
import { EmptyState, Spinner } from '../../ui/index.ts';
import { billing } from '../../i18n/es-billing.ts';
import { LoadError } from './LoadError.tsx';
import { ScrollTable } from './ScrollTable.tsx';
import { currencyCode, formatDay, invoiceStatus } from './paymentsModel.ts';

const text = billing.invoices;

const STATUS_CHIP = { paid: 'ui-chip--success', open: 'ui-chip--warning', failed: 'ui-chip--danger', void: '' } as const;

function InvoiceRow({ invoice }: { invoice: Invoice }) {
  const status = invoiceStatus(invoice);
  const number = invoice.number ?? text.noNumber;
  return (
    <tr>
      <td data-label={text.date}>{formatDay(invoice.createdAt)}</td>
      <td data-label={text.number}>{number}</td>
      <td data-label={text.period}>
        {invoice.periodStart && invoice.periodEnd ? text.range(formatDay(invoice.periodStart), formatDay(invoice.periodEnd)) : text.noNumber}
      </td>
      <td data-label={text.amount} className="payments-number">{formatMoney(invoice.total, currencyCode(invoice.currency))}</td>
      <td data-label={text.status}><span className={`ui-chip ${STATUS_CHIP[status]}`}>{text.statuses[status]}</span></td>
      <td data-label={text.pdf}>
        {invoice.pdfUrl && (
          <a href={invoice.pdfUrl} target="_blank" rel="noopener noreferrer" aria-label={text.pdfLabel(number)}>{text.pdf}</a>
        )}
      </td>
    </tr>
  );
}

/** 'Facturas', newest first, each with its PDF on Stripe (a new tab); on a phone it scrolls sideways, the date kept in view. */
export function InvoicesSection() {
  const invoices = useInvoicesQuery();
  let body;
  if (invoices.isLoading) body = <div className="payments-placeholder"><Spinner /></div>;
  else if (invoices.isError) body = <LoadError error={invoices.error} fallback={text.loadFailed} onRetry={() => void invoices.refetch()} />;
  else if (!invoices.data || invoices.data.length === 0) body = <EmptyState title={text.empty} headingLevel={3} />;
  else
    body = (
      <ScrollTable label={text.label}>
        <table className="ui-table payments-table">
          <thead>
            <tr>
              <th scope="col">{text.date}</th>
              <th scope="col">{text.number}</th>
              <th scope="col">{text.period}</th>
              <th scope="col">{text.amount}</th>
              <th scope="col">{text.status}</th>
              <th scope="col"><span className="ui-visually-hidden">{text.pdf}</span></th>
            </tr>
          </thead>
          <tbody>
            {invoices.data.map((invoice) => <InvoiceRow key={invoice.id} invoice={invoice} />)}
          </tbody>
        </table>
      </ScrollTable>
    );
  return (
    <section className="ui-card ui-section" aria-labelledby="payments-invoices-title">
      <h2 id="payments-invoices-title" className="ui-section__title">{text.heading}</h2>
      {body}
    </section>
  );
}
