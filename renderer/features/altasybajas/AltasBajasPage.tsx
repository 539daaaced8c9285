import { useState } from 'react';
import { areas, screens } from '../../i18n/es-screens.ts';
import { Button, EmptyState, IconUsers, PageHeader } from '../../ui/index.ts';

const text = screens.altasybajas;

/** The dashboard and the company configuration are two views of the same route. */
type View = 'dashboard' | 'companies';

export default function AltasBajasPage() {
  const [view, setView] = useState<View>('dashboard');

  if (view === 'companies') {
    return (
      <main className="ui-page">
        <PageHeader title={text.companiesTitle} onBack={() => setView('dashboard')} />
        <EmptyState icon={<IconUsers />} title={text.noCompanies} text={screens.notAvailableYet} />
      </main>
    );
  }

  return (
    <main className="ui-page">
      <PageHeader
        title={areas.altasybajas.title}
        subtitle={areas.altasybajas.dashboard}
        actions={
          <Button variant="secondary" onClick={() => setView('companies')}>
            {text.openCompanies}
          </Button>
        }
      />
      <EmptyState icon={<IconUsers />} title={screens.comingSoonTitle} text={`${areas.altasybajas.summary} ${screens.notAvailableYet}`} />
      <div className="ui-columns">
        <section className="ui-card ui-section" aria-labelledby="altas-pending-title">
          <h2 id="altas-pending-title" className="ui-section__title">{text.pending}</h2>
          <p className="ui-muted">{text.emptyPending}</p>
        </section>
        <section className="ui-card ui-section" aria-labelledby="altas-history-title">
          <h2 id="altas-history-title" className="ui-section__title">{text.history}</h2>
          <p className="ui-muted">{text.emptyHistory}</p>
        </section>
      </div>
    </main>
  );
}
