import { useRouteError } from 'react-router-dom';
import { Button } from '../../ui/Button.tsx';
import { es } from '../../i18n/es.ts';

/** When a screen fails to load or throws: say so in Spanish and offer a reload (chunk errors heal that way). */
export function RouteError() {
  const error = useRouteError();
  const detail = error instanceof Error ? error.message : undefined;
  return (
    <main className="app-not-found" role="alert">
      <h1>{es.routeError.title}</h1>
      <p>{es.routeError.body}</p>
      {detail && <p className="app-muted">{detail}</p>}
      <Button onClick={() => window.location.reload()}>{es.routeError.reload}</Button>
    </main>
  );
}
