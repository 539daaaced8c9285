import { useSearchParams } from 'react-router-dom';
import { useSupportInfoQuery } from '../../api/support.ts';
import { screens } from '../../i18n/es-screens.ts';
import { support } from '../../i18n/es-support.ts';
import { IconMail, PageHeader, Spinner } from '../../ui/index.ts';
import { HelpAreas } from './HelpAreas.tsx';
import { MyTickets } from './MyTickets.tsx';
import { NewTicketForm } from './NewTicketForm.tsx';
import { TicketView } from './TicketView.tsx';

const text = support.address;

/** The support address (the server's SUPPORT_EMAIL), for those who prefer to write: a secondary line. */
function SupportAddress() {
  const { data, isLoading, isError } = useSupportInfoQuery();
  if (isLoading) return <Spinner size="small" label={text.loading} />;
  if (isError || !data) return <p className="ui-muted">{text.failed}</p>;
  return (
    <p className="app-support__line ui-muted">
      <IconMail size={20} /> {text.writeTo}{' '}
      <a className="app-support__address" href={`mailto:${data.email}`}>{data.email}</a>
    </p>
  );
}

/** A positive whole page number from the query, else the first page. */
function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/**
 * /help: the firm's consultas with support (the list, a new one, one ticket; which one is in the
 * query so links and the back button work), then the support address and what each area does.
 */
export default function HelpPage() {
  const [params, setParams] = useSearchParams();
  const ticketId = params.get('consulta');
  const creating = params.get('nueva') === '1';

  return (
    <main className="ui-page support-page">
      <PageHeader title={screens.help.title} subtitle={screens.help.subtitle} />
      {ticketId ? (
        <TicketView key={ticketId} id={ticketId} />
      ) : creating ? (
        <NewTicketForm runId={params.get('ejecucion') ?? undefined} />
      ) : (
        <MyTickets page={pageFrom(params.get('pagina'))} onPageChange={(page) => setParams(page > 1 ? { pagina: String(page) } : {})} />
      )}
      <SupportAddress />
      <HelpAreas />
    </main>
  );
}
