import { areas } from '../../i18n/es-screens.ts';
import { ComingSoonArea, IconCatalog } from '../../ui/index.ts';

export default function RobotekaPage() {
  return <ComingSoonArea title={areas.roboteka.title} summary={areas.roboteka.summary} icon={<IconCatalog />} />;
}
