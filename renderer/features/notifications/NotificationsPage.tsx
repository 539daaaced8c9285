import { areas, screens } from '../../i18n/es-screens.ts';
import { ComingSoonArea, IconInbox } from '../../ui/index.ts';

export default function NotificationsPage() {
  return (
    <ComingSoonArea title={areas.notifications.title} summary={areas.notifications.summary} icon={<IconInbox />} emptyTitle={screens.notifications.empty} />
  );
}
