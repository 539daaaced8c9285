import { areas, screens } from '../../i18n/es-screens.ts';
import { ComingSoonArea } from '../../ui/index.ts';

export default function NotificationsPage() {
  return (
    <ComingSoonArea title={areas.notifications.title} summary={areas.notifications.summary} icon="📬" emptyTitle={screens.notifications.empty} />
  );
}
