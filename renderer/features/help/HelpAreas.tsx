import { Link } from 'react-router-dom';
import { areas, availableAreas, readyAreas, screens, type AreaKey } from '../../i18n/es-screens.ts';

const text = screens.help;

/** Every area of the app with what it does and whether it is available yet, linking the available ones. */
export function HelpAreas() {
  return (
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
  );
}
