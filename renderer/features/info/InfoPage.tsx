import { BackToApp } from '../../app/shell/BackToApp.tsx';
import { screens } from '../../i18n/es-screens.ts';
import { IconMonitor, InfoCard, PageHeader } from '../../ui/index.ts';

const text = screens.info;

/** A public page that explains what AutoAsesor is. */
export default function InfoPage() {
  return (
    <main className="ui-page">
      <BackToApp />
      <PageHeader title={text.title} subtitle={text.subtitle} />
      <section className="ui-card ui-section">
        <p>{text.intro}</p>
        <ul className="ui-list">
          {text.points.map((point) => (
            <li key={point}>{point}</li>
          ))}
        </ul>
        <p className="ui-muted">{text.credits}</p>
      </section>
      <InfoCard title={text.modesTitle} icon={<IconMonitor />}>
        <p>{text.modes}</p>
      </InfoCard>
    </main>
  );
}
