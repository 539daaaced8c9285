import { Link } from 'react-router-dom';
import { es } from '../../i18n/es-core.ts';

export function NotFoundPage() {
  return (
    <main className="app-not-found">
      <h1>{es.notFound.title}</h1>
      <p>{es.notFound.body}</p>
      <Link to="/" className="app-link-button">
        {es.notFound.goHome}
      </Link>
    </main>
  );
}
