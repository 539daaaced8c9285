import { areas, screens } from '../../i18n/es-screens.ts';
import { ComingSoonArea, IconFolder } from '../../ui/index.ts';

export default function WorkspacePage() {
  return <ComingSoonArea title={areas.workspace.title} summary={areas.workspace.summary} icon={<IconFolder />} emptyTitle={screens.workspace.empty} />;
}
