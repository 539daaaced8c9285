import { areas, screens } from '../../i18n/es-screens.ts';
import { ComingSoonArea, IconKey } from '../../ui/index.ts';

export default function WorkspacePage() {
  return <ComingSoonArea title={areas.workspace.title} summary={areas.workspace.summary} icon={<IconKey />} emptyTitle={screens.workspace.empty} />;
}
