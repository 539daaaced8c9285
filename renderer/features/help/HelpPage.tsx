import { Link } from 'react-router-dom';
import { areas, availableAreas, screens } from '../../i18n/es-screens.ts';
import { IconHelp, InfoCard, PageHeader } from '../../ui/index.ts';

const text = screens.help;

export default function HelpPage() {
  return (
    <div className="ui-page">
      <PageHeader title={text.title} subtitle={text.subtitle} />
      <InfoCard title={text.supportTitle} icon={<IconHelp />} tone="info">
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
          {Object.entries(areas).map(([key, area]) => (
            <div key={key} className="ui-definitions__item">
              <dt>
                {area.title} <span className="ui-chip">{text.notAvailable}</span>
              </dt>
              <dd>{area.summary}</dd>
            </div>
          ))}
        </dl>
      </section>
    </div>
  );
}
