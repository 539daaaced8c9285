import { Link } from 'react-router-dom';
import { screens } from '../../i18n/es-screens.ts';
import { PageHeader } from '../../ui/index.ts';

const text = screens.onboarding;

/** A checklist of what to set up first; each step says plainly whether this version offers it. */
export default function OnboardingPage() {
  return (
    <main className="ui-page">
      <PageHeader title={text.title} subtitle={text.subtitle} />
      <ol className="ui-card ui-checklist" aria-label={text.checklistLabel}>
        {text.steps.map((step) => (
          <li key={step.key} className={step.available ? 'ui-checklist__item' : 'ui-checklist__item ui-checklist__item--unavailable'}>
            <div className="ui-checklist__text">
              <h2 className="ui-checklist__title">{step.title}</h2>
              <p>{step.text}</p>
            </div>
            <div className="ui-checklist__status">
              <span className={step.available ? 'ui-chip ui-chip--success' : 'ui-chip'}>{step.available ? text.available : text.notAvailable}</span>
              {step.path && (
                <Link className="ui-button ui-button--secondary" to={step.path} aria-label={`${text.go}: ${step.title}`}>
                  {text.go}
                </Link>
              )}
            </div>
          </li>
        ))}
      </ol>
    </main>
  );
}
