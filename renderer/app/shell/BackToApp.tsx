import { Link } from 'react-router-dom';
import { es } from '../../i18n/es.ts';
import { IconArrowLeft } from '../../ui/icons.tsx';

/**
 * The way from a public page back into the app: '/' leads a signed-in user to their start screen
 * and anyone else to sign in (the route guard decides), so the page is never a dead end.
 */
export function BackToApp() {
  return (
    <Link to="/" className="app-public-back">
      <IconArrowLeft size={18} /> {es.publicPage.backToApp}
    </Link>
  );
}
