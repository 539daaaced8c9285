import { Link } from 'react-router-dom';
import { areas, availableAreas, readyAreas, screens, type AreaKey } from '../../i18n/es-screens.ts';
import { IconHelp, IconMail, InfoCard, PageHeader, Spinner } from '../../ui/index.ts';
import { useSupportInfoQuery } from './supportApi.ts';

const text = screens.help;

/** The support address (from the server's SUPPORT_EMAIL) as a mailto link, or why it is missing. */
function SupportAddress() {
  const { data, isLoading, isError } = useSupportInfoQuery();
  if (isLoading) return <Spinner size="small" label={text.supportLoading} />;
  if (isError || !data) return <p role="alert">{text.supportFailed}</p>;
  return (
    <p className="app-support__line">
      <IconMail size={20} /> {text.writeTo}{' '}
      <a className="app-support__address" href={`mailto:${data.email}`}>
        {data.email}
      </a>
    </p>
  );
}

export default function HelpPage() {
  return (
    <main className="ui-page">
      <PageHeader title={text.title} subtitle={text.subtitle} />
      <InfoCard title={text.supportTitle} icon={<IconHelp />} tone="info">
        <SupportAddress />
        <ol className="ui-list">
          {text.supportSteps.map((step) => (
            <li key={step}>{step}</li>
          ))}
        </ol>
        <p className="ui-muted">{text.ticketsNotAvailable}</p>
      </InfoCard>
      <section className="ui-card ui-section" aria-labelledby="help-areas-title">
        <h2 id="help-areas-title" className="ui-section__title">{text.areasTitle}</h2>
        <dl className="ui-definitions">
          {availableAreas.map((area) => (
            <div key={area.key} className="ui-definitions__item">
              <dt>
                <Link to={area.path}>{area.title}</Link> <span className="ui-chip ui-chip--success">{text.available}</span>
              </dt>
              <dd>{area.summary}</dd>
            </div>
          ))}
          {(Object.entries(areas) as [AreaKey, (typeof areas)[AreaKey]][]).map(([key, area]) => (
            <div key={key} className="ui-definitions__item">
              <dt>
                {readyAreas.includes(key) ? (
                  <>
                    <Link to={area.path}>{area.title}</Link> <span className="ui-chip ui-chip--success">{text.available}</span>
                  </>
                ) : (
                  <>
                    {area.title} <span className="ui-chip">{text.notAvailable}</span>
                  </>
                )}
              </dt>
              <dd>{area.summary}</dd>
            </div>
          ))}
        </dl>
      </section>
    </main>
  );
}
