import { areas } from '../../i18n/es-screens.ts';
import { ComingSoonArea, IconRocket } from '../../ui/index.ts';

export default function LauncherPage() {
  return <ComingSoonArea title={areas.launcher.title} summary={areas.launcher.summary} icon={<IconRocket />} />;
}
