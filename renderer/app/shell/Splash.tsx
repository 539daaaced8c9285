import { Spinner } from '../../ui/Spinner.tsx';
import { es } from '../../i18n/es-core.ts';

/** The global splash while the session is being restored. */
export function Splash({ message = es.splash.restoring }: { message?: string }) {
  return (
    <div className="app-splash" role="status" aria-live="polite">
      <p className="app-splash__brand">{es.appName}</p>
      <Spinner decorative />
      <p>{message}</p>
    </div>
  );
}

/** What a screen shows while its code loads: not the session text, which belongs to the restore only. */
export function LoadingScreen() {
  return <Splash message={es.common.loading} />;
}
